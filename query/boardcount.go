package query

import (
	"context"
	"errors"
	"fmt"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/query/solve"
)

// Board counts answer the toroidal and superqueen properties of queens
// that are not stored (recorded by their counts, or not in the catalog at
// all, up to queens:32) by the board counters (solve.Board): a search of
// their own, far smaller than all of the puzzle's, with the filter's
// squares fixed. Without cells the count also gives the classes by orbit
// size (Burnside's lemma), so --classes, --orbit and the symmetry
// properties are answered too; every such count is checked against the
// published one (canon.KnownWithProperty) before it is printed or kept.
// Answers are kept like constrained counts', each the number of solutions
// of a filter: the total, and of the classes of 2 and 4 members (1 on
// queens:1), from which the classes follow.

// MaxBoardCount is the longest a board count is let run, as judged before
// it starts (docs/performance.md plans the longer ones).
const MaxBoardCount = 1000 * time.Hour

// knownWithProperty gives the published counts checked (tests replace it).
var knownWithProperty = canon.KnownWithProperty

// A BoardCount is the count of a board property of a queens puzzle that
// is not stored, judged and ready to run.
type BoardCount struct {
	Puzzle  canon.Puzzle
	Filter  Filter
	Prop    canon.Property // canon.Toroidal or canon.Superqueen
	Classes bool           // classes are counted, not solutions
	Workers int
	Nodes   float64         // Knuth's estimate of the search's nodes
	Took    time.Duration   // how long it should take
	storage string          // "none", or "counts" for a puzzle recorded by its counts
	orbits  []int           // the orbit sizes asked, in order
	counter *solve.Board    // nil up to symmetry: a count for each set of images
	kept    *catalog.Answer // the answer kept, once looked up (the total's, without cells)
	part    Part            // the share of the units this run counts (Take)
}

// BoardAsked reports whether f asks a board property (toroidal,
// superqueen) of queens, which a board count can answer when the puzzle is
// not stored.
func BoardAsked(p canon.Puzzle, f Filter) bool {
	return p.Kind == canon.Queens && f.Props.Board() != 0
}

// NeedsNoRecord reports whether a count of f on p (filterErr: why f could
// not be read) needs nothing of p stored, so that PlanUnrecorded plans it:
// queens too large to count whole (the filter's mistake is theirs to
// say), a board property asked of queens, or a filter on queens counted
// again by the fast counter. Other questions are the catalog's to answer,
// or to refuse.
func NeedsNoRecord(p canon.Puzzle, f Filter, filterErr error) bool {
	return PastReach(p) || filterErr == nil && (BoardAsked(p, f) || FilterCounted(p, f))
}

// PlanUnrecorded gives the count of f (classes when classes is set) on p
// that needs nothing stored, if it is one: a board property of a puzzle
// not stored in cat (nil: no catalog), or a filter on queens too large to
// count whole (PlanSearchCount). ok is false for the questions the
// catalog answers.
func PlanUnrecorded(ctx context.Context, cat *catalog.Catalog, p canon.Puzzle, f Filter, classes bool, workers int) (u Unrecorded, ok bool, err error) {
	storage := "none"
	if BoardAsked(p, f) {
		if cat != nil {
			rec, found, err := cat.Puzzle(ctx, p.String())
			switch {
			case err != nil:
				return nil, false, err
			case found && rec.Storage != catalog.StorageCounts:
				return nil, false, nil // stored: read
			case found:
				storage = string(rec.Storage)
			}
		}
		b, err := PlanBoardCount(p, f, classes, workers)
		if err != nil {
			return nil, false, err
		}
		b.storage = storage
		return b, true, nil
	}
	if !PastReach(p) {
		if !FilterCounted(p, f) || classes {
			return nil, false, nil
		}
		if cat != nil {
			if _, found, err := cat.Puzzle(ctx, p.String()); err != nil || found {
				return nil, false, err // in the catalog: read, or counted again from its record
			}
		}
	}
	if classes {
		return nil, false, &PastReachError{Puzzle: p, CountedUpTo: solve.MaxCountedQueens, Classes: true}
	}
	judge := true
	if cat != nil && f.Validate(p) == nil && len(f.Cells) > 0 {
		// A kept answer needs no judging (which counts some units).
		_, kept, err := cat.LookUpAnswer(ctx, p.String(), question(p, f))
		if err != nil {
			return nil, false, err
		}
		judge = !kept
	}
	s, err := planSearchCount(ctx, p, f, workers, judge)
	return s, err == nil, err
}

// PlanBoardCount judges the count of f, which asks a board property, on
// p, on workers goroutines, as if nothing of p were stored.
func PlanBoardCount(p canon.Puzzle, f Filter, classes bool, workers int) (*BoardCount, error) {
	if err := f.Validate(p); err != nil {
		return nil, err
	}
	prop := f.Props.Board()
	switch {
	case !BoardAsked(p, f):
		return nil, filterMistake("a board count asks the toroidal or the superqueen property")
	case prop != canon.Toroidal && prop != canon.Superqueen:
		return nil, filterMistake(fmt.Sprintf("%s is not stored: toroidal and superqueen are counted one at a time; ask one of them", p))
	case f.Class != 0:
		return nil, &BoardAskError{Puzzle: p, Prop: prop, Class: true}
	}
	b := &BoardCount{Puzzle: p, Filter: f, Prop: prop, Classes: classes, Workers: max(workers, 1), storage: "none"}
	// The orbit sizes asked, by --orbit and the symmetry properties.
	for _, k := range []int{1, 2, 4, 8} {
		sym := canon.SymmetryType(k)
		if (f.Orbit == 0 || f.Orbit == k) && f.Props&^prop&^sym == 0 {
			b.orbits = append(b.orbits, k)
		}
	}
	orbitsAsked := f.Orbit != 0 || f.Props != prop
	if len(f.Cells) > 0 && (orbitsAsked || classes) {
		return nil, &BoardAskError{Puzzle: p, Prop: prop}
	}
	if f.UpToSymmetry && len(f.Cells) > 0 {
		return b, nil // several counts; no estimate
	}
	var err error
	if b.counter, err = solve.NewBoard(prop, queensConstraint(p, f).Canonical()); err != nil {
		return nil, err
	}
	b.Nodes, b.Took = b.counter.SearchTime(b.Workers)
	return b, nil
}

// free reports whether the count has no cells: it counts the classes too.
func (b *BoardCount) free() bool { return len(b.Filter.Cells) == 0 }

// question is the key of the answer kept for the solutions of the orbit
// size given (0: all) that meet the filter's cells.
func (b *BoardCount) question(orbit int) []byte {
	return solve.Question{Constraint: queensConstraint(b.Puzzle, b.Filter), UpToSymmetry: b.Filter.UpToSymmetry && len(b.Filter.Cells) > 0,
		Prop: b.Prop, Orbit: orbit}.Key()
}

// orbitAnswers are the orbit sizes whose solutions are kept beside the
// total: with it they give every class count.
func (b *BoardCount) orbitAnswers() []int {
	if b.Puzzle.N == 1 {
		return []int{1}
	}
	return []int{2, 4}
}

// value is the answer asked, from the classes by orbit size.
func (b *BoardCount) value(c solve.Orbits) int64 {
	var v int64
	for _, k := range b.orbits {
		if b.Classes {
			v += c[k]
		} else {
			v += int64(k) * c[k]
		}
	}
	return v
}

// onlyTotal reports whether the answer is the number of solutions that
// meet the cells, with no orbit size or class asked.
func (b *BoardCount) onlyTotal() bool { return !b.Classes && len(b.orbits) == 4 }

// PuzzleName names the puzzle counted.
func (b *BoardCount) PuzzleName() string { return b.Puzzle.String() }

// Of says what is counted: "solutions" or "classes".
func (b *BoardCount) Of() string {
	if b.Classes {
		return "classes"
	}
	return "solutions"
}

// LookUp gives the answer kept in cat from an earlier count, if any.
func (b *BoardCount) LookUp(ctx context.Context, cat *catalog.Catalog) (int64, bool, error) {
	name := b.Puzzle.String()
	total, ok, err := cat.LookUpAnswer(ctx, name, b.question(0))
	if err != nil || !ok {
		return 0, false, err
	}
	if b.onlyTotal() {
		b.kept = &total
		return total.Solutions, true, nil
	}
	// The classes by orbit size, from the solutions kept of each.
	var c solve.Orbits
	rest := total.Solutions
	for _, k := range b.orbitAnswers() {
		a, ok, err := cat.LookUpAnswer(ctx, name, b.question(k))
		if err != nil || !ok {
			return 0, false, err
		}
		c[k] = a.Solutions / int64(k)
		rest -= a.Solutions
	}
	c[8] = rest / 8
	b.kept = &total // only once every part of the answer is found
	return b.value(c), true, nil
}

// Refusal says why the count is not run, or nil.
func (b *BoardCount) Refusal() error {
	if b.Took <= MaxBoardCount {
		return nil
	}
	what := fmt.Sprintf("the %s solutions of %s", b.Prop, b.Puzzle)
	if b.Sharded() {
		what = fmt.Sprintf("shard %d/%d of %s", b.part.Shard, b.part.Of, what)
	}
	return fmt.Errorf("counting %s would take %s on %s (about %.2g search nodes); counts over %.0f hours are not run: split it into more shards with --shard I/K, each counted on a machine of its own, then 'solcat merge'",
		what, roughDuration(b.Took), canon.Plural(int64(b.Workers), "goroutine"), b.Nodes, MaxBoardCount.Hours())
}

// Expect is how long the count should take.
func (b *BoardCount) Expect() time.Duration { return b.Took }

// Announce says, before a long count, what runs and for how long.
func (b *BoardCount) Announce() string {
	if b.Sharded() {
		return fmt.Sprintf("counting shard %d/%d of the %s solutions of %s by the %s, %s", b.part.Shard, b.part.Of, b.Prop, b.Puzzle, b.counter.Method(), roughDuration(b.Took))
	}
	return fmt.Sprintf("%s is not stored: counting its %s solutions by the %s, %s", b.Puzzle, b.Prop, b.counter.Method(), roughDuration(b.Took))
}

// UnitKey is the key the count's units are saved under (the question's,
// and the units' scheme), and Units their number (0: the count is not
// saved as it runs, as up to symmetry).
func (b *BoardCount) UnitKey() []byte {
	key := b.question(0)
	if b.counter != nil && b.counter.Scheme() != 0 {
		key = append(key, '/', b.counter.Scheme())
	}
	return key
}

// Units is how many units the count is saved and resumed by.
func (b *BoardCount) Units() int {
	if b.counter == nil {
		return 0
	}
	return b.counter.Units()
}

// Report says how the count goes, or that an answer is kept (after
// LookUp).
func (b *BoardCount) Report() PlanReport {
	r := PlanReport{Puzzle: b.Puzzle.String(), Storage: b.storage, Way: "board count", Workers: b.Workers}
	store := "none (" + b.Puzzle.String() + " is not in the catalog, and needs no record)"
	if b.storage != "none" {
		store = b.storage + " (counts only: the " + b.Prop.String() + " solutions are not among them)"
	}
	r.Detail = append(r.Detail, "storage: "+store)
	seq := canon.PropertyOEIS(b.Prop)
	switch {
	case b.kept != nil:
		r.Way = FromAnswer.String()
		a := b.kept
		what := "kept from a count of " + a.Filter
		if !b.onlyTotal() {
			what += " and of its classes by orbit size"
		}
		r.Detail = append(r.Detail, fmt.Sprintf("answer: %s on %s (%s, %.1f s on %s); nothing else is read",
			what, a.RecordedAt, a.Method, a.Seconds, canon.Plural(int64(a.Workers), "goroutine")))
	case b.counter == nil:
		r.Detail = append(r.Detail, fmt.Sprintf("answer: nothing is stored to read; counted by the %s counter, the filter's squares fixed: the solutions of its distinct images among the 8, joined by inclusion and exclusion, on %s",
			b.Prop, canon.Plural(int64(b.Workers), "goroutine")),
			"estimate: none (one count for each set of images that can meet)")
	case b.counter.Units() == 0:
		r.Detail = append(r.Detail, "answer: nothing is stored to read; counted by the "+b.counter.Method(), "estimate: none needed")
	default:
		units := canon.Plural(int64(b.counter.Units()), "unit")
		if b.counter.Classes() && !b.Sharded() {
			units += " and the solutions the turns fix (for the classes by orbit size)"
		}
		estimate := fmt.Sprintf("estimate: %s, from Knuth's estimate of %.3g search nodes and the counter's measured speed", roughDuration(b.Took), b.Nodes)
		if b.Took == 0 && b.Resumes() {
			estimate = "estimate: none needed, every unit is saved"
		}
		r.Detail = append(r.Detail, fmt.Sprintf("answer: nothing is stored to read; counted by the %s: %s, on %s", b.counter.Method(), units, canon.Plural(int64(b.Workers), "goroutine")), estimate)
		r.Detail = append(r.Detail, b.partDetail()...)
		if why := b.Refusal(); why != nil {
			r.Detail = append(r.Detail, "refused: "+why.Error())
		}
		if k, ok := knownWithProperty(b.Puzzle, b.Prop); ok && b.free() && !b.Sharded() {
			check := fmt.Sprintf("the count is checked against the published %s (%s)", canon.Plural(k.Solutions, "solution"), seq.Solutions)
			if k.Classes >= 0 {
				check += fmt.Sprintf(" and %s (%s)", canon.Plural(k.Classes, "class"), seq.Classes)
			}
			r.Detail = append(r.Detail, "checks: "+check+" before it is printed or kept")
		}
	}
	r.Detail = append(r.Detail, "filter: "+b.Filter.String(b.Puzzle))
	return r
}

// ErrPublished is a count that differs from the published one: it is
// neither printed nor kept.
var ErrPublished = errors.New("differs from the published count")

// checkPublished compares a count without cells with the published one.
func (b *BoardCount) checkPublished(c solve.Orbits) error {
	k, ok := knownWithProperty(b.Puzzle, b.Prop)
	if !ok {
		return nil
	}
	seq := canon.PropertyOEIS(b.Prop)
	var wrong string
	switch {
	case c.Solutions() != k.Solutions:
		wrong = fmt.Sprintf("%d solutions, where %s gives %d", c.Solutions(), seq.Solutions, k.Solutions)
	case k.Classes >= 0 && c.Classes() != k.Classes:
		wrong = fmt.Sprintf("%d classes, where %s gives %d", c.Classes(), seq.Classes, k.Classes)
	case k.Orbits != [9]int64{} && c != k.Orbits:
		wrong = fmt.Sprintf("classes of 1, 2, 4 and 8 members %d/%d/%d/%d, where the published counts give %d/%d/%d/%d",
			c[1], c[2], c[4], c[8], k.Orbits[1], k.Orbits[2], k.Orbits[4], k.Orbits[8])
	default:
		return nil
	}
	return fmt.Errorf("the %s count of %s, %s: it %w and is not kept (this is a bug, please report it)", b.Prop, b.Puzzle, wrong, ErrPublished)
}

// Count counts the units not in saved (counts of units by index, from an
// earlier run that stopped), handing each unit counted to save (if not
// nil) and telling progress, and gives the answer and what to keep of it.
// A count without cells is checked against the published one first.
func (b *BoardCount) Count(ctx context.Context, saved map[int]int64, save func(unit int, solutions int64), progress Progress) (int64, []catalog.Answer, error) {
	began := time.Now()
	answer := func(f Filter, q []byte, solutions int64, method string) catalog.Answer {
		return catalog.Answer{Puzzle: b.Puzzle.String(), Question: q, Filter: f.String(b.Puzzle), Solutions: solutions,
			Method: method, Seconds: time.Since(began).Seconds(), Workers: b.Workers}
	}
	if b.counter == nil {
		c := queensConstraint(b.Puzzle, b.Filter)
		n, err := solve.Question{Constraint: c, UpToSymmetry: true, Prop: b.Prop}.Count(ctx, b.Workers)
		if err != nil {
			return 0, nil, err
		}
		f := Filter{Cells: b.Filter.Cells, UpToSymmetry: true, Props: b.Prop}
		return n, []catalog.Answer{answer(f, b.question(0), n, fmt.Sprintf("%s counter, %d images by inclusion and exclusion", b.Prop, c.Images()))}, nil
	}
	b.counter.Resume(saved)
	n, orbits, err := b.counter.Count(ctx, b.Workers, save, progress)
	if err != nil {
		return 0, nil, err
	}
	f := Filter{Cells: b.Filter.Cells, Props: b.Prop}
	if !b.free() {
		return n, []catalog.Answer{answer(f, b.question(0), n, b.counter.Method())}, nil
	}
	if err := b.checkPublished(orbits); err != nil {
		return 0, nil, err
	}
	method := b.counter.Method() + ", classes by the solutions the turns fix"
	kept := []catalog.Answer{answer(f, b.question(0), orbits.Solutions(), method)}
	for _, k := range b.orbitAnswers() {
		kept = append(kept, answer(Filter{Props: b.Prop, Orbit: k}, b.question(k), int64(k)*orbits[k], method))
	}
	return b.value(orbits), kept, nil
}
