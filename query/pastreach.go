package query

import (
	"context"
	"fmt"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/query/solve"
)

// Counts of queens under a filter that need no record of the puzzle: past
// the sizes solcat counts whole (queens:24 to 32), and from queens:18 (the
// first size not stored solution by solution) to 23 when the puzzle is not
// in the catalog. The halves counter counts them with the board cut where
// the filter makes the work least (solve.Counter); a filter that leaves no
// cut whose blocks fit in memory is counted by the row-by-row search. How
// long it would take is judged first: for a cut count by listing its
// blocks of rows and timing a few of its units (kept for the count), for
// the search from Knuth's estimate of its nodes and its measured speed.

// PastReach reports whether p is a queens puzzle too large to count whole
// that a filter may still count.
func PastReach(p canon.Puzzle) bool {
	return p.Kind == canon.Queens && p.N > solve.MaxCountedQueens && p.N <= solve.MaxConstrainedQueens
}

// FilterCounted reports whether a filter of cells on p, not in the
// catalog, is counted with no record of p (SearchCount): queens from
// solve.MinSplitQueens on.
func FilterCounted(p canon.Puzzle, f Filter) bool {
	return PastReach(p) || p.Kind == canon.Queens && p.N >= solve.MinSplitQueens && p.N <= solve.MaxConstrainedQueens &&
		len(f.Cells) > 0 && !f.UpToSymmetry && f.Class == 0 && f.Orbit == 0 && f.Props == 0
}

// MaxSearchCount is the longest a count past reach is let run, as judged
// before it starts; longer ones are left to solcat estimate.
const MaxSearchCount = time.Hour

// SampleBudget is how long PlanSearchCount times a cut count's units for,
// past listing its blocks.
var SampleBudget = time.Second

// LongestSample is the longest a cut count's judging counts one unit for:
// a unit not finished by then puts the count past MaxSearchCount.
var LongestSample = 40 * time.Second

// A SearchCount is a filter's count with no record, judged and ready to run.
type SearchCount struct {
	Puzzle   canon.Puzzle
	Filter   Filter
	Question []byte
	Nodes    float64       // Knuth's estimate of the search's nodes (the row-by-row search)
	Took     time.Duration // how long it should take
	Workers  int
	counter  *solve.Counter // with the units counted as the count was judged
	sampled  string         // how a cut count's time was judged
}

// PlanSearchCount judges the count of f on p, on workers goroutines.
func PlanSearchCount(ctx context.Context, p canon.Puzzle, f Filter, workers int) (SearchCount, error) {
	return planSearchCount(ctx, p, f, workers, true)
}

// planSearchCount is PlanSearchCount; without judge the time is not
// judged (the answer is kept).
func planSearchCount(ctx context.Context, p canon.Puzzle, f Filter, workers int, judge bool) (SearchCount, error) {
	switch {
	case !FilterCounted(p, f) && !PastReach(p):
		return SearchCount{}, fmt.Errorf("%s is counted whole by a count-only build", p)
	case len(f.Cells) == 0:
		return SearchCount{}, &PastReachError{Puzzle: p, CountedUpTo: solve.MaxCountedQueens, NoCells: true}
	case f.UpToSymmetry || f.Class != 0 || f.Orbit != 0 || f.Props != 0:
		return SearchCount{}, &PastReachError{Puzzle: p, CountedUpTo: solve.MaxCountedQueens}
	}
	if err := f.Validate(p); err != nil {
		return SearchCount{}, err
	}
	counter, err := solve.NewCounter(queensConstraint(p, f))
	if err != nil {
		return SearchCount{}, err
	}
	s := SearchCount{Puzzle: p, Filter: f, Question: question(p, f), Workers: max(workers, 1), counter: counter}
	if !judge {
		s.sampled = "not judged: the answer is kept"
		return s, nil
	}
	if !counter.Halves() {
		s.Nodes, s.Took = counter.SearchTime(s.Workers)
		return s, nil
	}
	sample, err := counter.Sample(ctx, SampleBudget, LongestSample, s.Workers)
	if err != nil {
		return SearchCount{}, err
	}
	units := counter.Units()
	s.Took = sample.Expect
	lines := "rows"
	if counter.Transposed() {
		lines = "columns"
	}
	s.sampled = fmt.Sprintf("its blocks of %s listed in %s, %d of its %d units timed", lines, roughDuration(sample.Listing), sample.Timed, units)
	if _, cut := counter.Cut(); !cut {
		s.sampled = fmt.Sprintf("%d of its %d units timed, with the blocks of rows they need", sample.Timed, units)
	}
	if sample.Short {
		s.sampled = fmt.Sprintf("its blocks of %s listed in %s, a unit of its %d not finished in %s: at least that", lines, roughDuration(sample.Listing), units, roughDuration(sample.Took))
	}
	return s, nil
}

// Refusal says why the count is left to an estimate (a *TooLongError), or
// nil.
func (s SearchCount) Refusal() error {
	if s.Took <= MaxSearchCount || s.counter == nil {
		return nil
	}
	judged := fmt.Sprintf("about %.2g search nodes", s.Nodes)
	if s.counter.Halves() {
		judged = s.sampled
	}
	return &TooLongError{Puzzle: s.Puzzle, Filter: s.Filter, Took: s.Took, Judged: judged}
}

// needs says why the count needs no record of the puzzle.
func (s SearchCount) needs() string {
	if PastReach(s.Puzzle) {
		return fmt.Sprintf("%s is too large to count whole, and needs no record", s.Puzzle)
	}
	return fmt.Sprintf("%s is not in the catalog, and the count needs no record of it", s.Puzzle)
}

// Explain says how the count would go.
func (s SearchCount) Explain() PlanReport {
	r := PlanReport{Puzzle: s.Puzzle.String(), Storage: "none", Way: "constrained count", Workers: s.Workers}
	if row, ok := s.counter.Cut(); ok {
		cut := fmt.Sprintf("the board cut below row %d (tops of rows 1-%d matched with bottoms of rows %d-%d)", row, row, row+1, s.Puzzle.N)
		if s.counter.Transposed() {
			cut = fmt.Sprintf("the board cut right of column %d (lefts of columns 1-%d matched with rights of columns %d-%d: the filter's transpose, which counts alike, cuts cheaper)", row, row, row+1, s.Puzzle.N)
		}
		r.Detail = append(r.Detail,
			fmt.Sprintf("answer: the halves counter under the filter, %s, exact, on %s; %s",
				cut, canon.Plural(int64(s.Workers), "goroutine"), s.needs()),
			fmt.Sprintf("estimate: %s, from %s", roughDuration(s.Took), s.sampled))
		if s.Took == 0 {
			r.Detail[len(r.Detail)-1] = "estimate: " + s.sampled
		}
	} else if s.counter.Halves() {
		r.Detail = append(r.Detail,
			fmt.Sprintf("answer: the halves counter under the filter, the board cut in the middle (no cut where the filter makes the work least fits in memory), exact, on %s; %s",
				canon.Plural(int64(s.Workers), "goroutine"), s.needs()),
			"estimate: "+roughDuration(s.Took)+", from "+s.sampled)
		if s.Took == 0 {
			r.Detail[len(r.Detail)-1] = "estimate: " + s.sampled
		}
	} else {
		r.Detail = append(r.Detail,
			fmt.Sprintf("answer: the row-by-row search under the filter, exact, on %s; %s", canon.Plural(int64(s.Workers), "goroutine"), s.needs()),
			fmt.Sprintf("estimate: %s, from Knuth's estimate of %.3g search nodes and the search's measured speed", roughDuration(s.Took), s.Nodes))
		if s.Took == 0 && s.sampled != "" {
			r.Detail[len(r.Detail)-1] = "estimate: " + s.sampled
		}
	}
	if why := s.Refusal(); why != nil {
		r.Detail = append(r.Detail, "refused: "+why.Error()+": left to an estimate")
	}
	r.Detail = append(r.Detail, "filter: "+s.Filter.String(s.Puzzle))
	return r
}

// Units is how many units the count is cut into (each a pair of columns
// of the first rows the filter leaves a choice in), the grain at which it
// is saved and resumed.
func (s SearchCount) Units() int { return s.counter.Units() }

// Run counts the units not in saved (counts of units by index, from an
// earlier run that stopped), handing each unit counted to save (if not
// nil) and telling progress, and gives the answer to keep.
func (s SearchCount) Run(ctx context.Context, saved map[int]int64, save func(unit int, solutions int64), progress Progress) (int64, catalog.Answer, error) {
	began := time.Now()
	s.counter.Resume(saved)
	total, err := s.counter.Count(ctx, s.Workers, save, progress)
	a := catalog.Answer{Puzzle: s.Puzzle.String(), Question: s.Question, Filter: s.Filter.String(s.Puzzle), Solutions: total,
		Method: s.counter.Method(), Seconds: time.Since(began).Seconds(), Workers: s.Workers}
	return total, a, err
}

// PastReachError is a count of queens past the sizes counted whole that
// the search under a filter cannot make: the filter has no cell condition
// (NoCells), it asks classes (Classes), or conditions other than cells.
type PastReachError struct {
	Puzzle      canon.Puzzle
	CountedUpTo int // the largest N counted whole
	NoCells     bool
	Classes     bool
}

func (e *PastReachError) Error() string {
	switch {
	case e.NoCells:
		return fmt.Sprintf("%s is too large to count whole; it is counted under cell conditions, or estimated", e.Puzzle)
	case e.Classes:
		return fmt.Sprintf("past queens:%d only solutions are counted, under cell conditions (or a toroidal or superqueen count)", e.CountedUpTo)
	}
	return fmt.Sprintf("past queens:%d only cell conditions are counted", e.CountedUpTo)
}

// BoardAskError is a question on queens not stored that their board
// counter (toroidal, superqueen) does not answer: a class (Class), or
// cells together with classes, orbit sizes or symmetry properties.
type BoardAskError struct {
	Puzzle canon.Puzzle
	Prop   canon.Property
	Class  bool
}

func (e *BoardAskError) Error() string {
	if e.Class {
		return fmt.Sprintf("%s is not stored: a class needs what is stored", e.Puzzle)
	}
	return fmt.Sprintf("%s is not stored: the %s counter counts solutions under cell conditions, and classes, orbit sizes and symmetry properties without them", e.Puzzle, e.Prop)
}

// Is makes a BoardAskError a mistake in the filter.
func (e *BoardAskError) Is(target error) bool { return target == ErrFilter }

// TooLongError is a count past the counted sizes judged to take longer
// than MaxSearchCount: it is left to an estimate.
type TooLongError struct {
	Puzzle canon.Puzzle
	Filter Filter
	Took   time.Duration
	Judged string // how the time was judged
}

func (e *TooLongError) Error() string {
	return fmt.Sprintf("counting %s %s exactly would take %s (%s)", e.Puzzle, e.Filter.String(e.Puzzle), roughDuration(e.Took), e.Judged)
}

// Is makes a PastReachError a mistake in the filter.
func (e *PastReachError) Is(target error) bool { return target == ErrFilter }

// filterMistake is a filter that does not fit the question, said whole.
type filterMistake string

func (e filterMistake) Error() string        { return string(e) }
func (e filterMistake) Is(target error) bool { return target == ErrFilter }

// An Unrecorded count needs nothing stored of its puzzle: a filter past
// the counted sizes (SearchCount) or a board property of a puzzle not
// stored (BoardCount). Its answer is kept in the catalog, and a long one
// saves its units as it runs and resumes from them.
type Unrecorded interface {
	PuzzleName() string
	Of() string // "solutions" or "classes"
	// LookUp gives the answer kept from an earlier count, if any.
	LookUp(ctx context.Context, cat *catalog.Catalog) (int64, bool, error)
	Report() PlanReport // what --explain prints (after LookUp: the kept answer)
	Refusal() error     // why the count is not run, or nil
	Expect() time.Duration
	Announce() string // before a long count: what runs, for how long
	Resumes() bool    // units saved by earlier runs are known to wait (Expect is the time left)
	UnitKey() []byte
	Units() int
	Count(ctx context.Context, saved map[int]int64, save func(unit int, solutions int64), progress Progress) (int64, []catalog.Answer, error)
}

// PuzzleName names the puzzle counted.
func (s SearchCount) PuzzleName() string { return s.Puzzle.String() }

// Of says what is counted: solutions.
func (s SearchCount) Of() string { return "solutions" }

// LookUp gives the answer kept from an earlier count, if any.
func (s SearchCount) LookUp(ctx context.Context, cat *catalog.Catalog) (int64, bool, error) {
	a, ok, err := cat.LookUpAnswer(ctx, s.Puzzle.String(), s.Question)
	return a.Solutions, ok, err
}

// Report is Explain's.
func (s SearchCount) Report() PlanReport { return s.Explain() }

// Expect is how long the count should take.
func (s SearchCount) Expect() time.Duration { return s.Took }

// Announce says, before a long count, what runs and for how long.
func (s SearchCount) Announce() string {
	if PastReach(s.Puzzle) {
		return fmt.Sprintf("%s is too large to count whole: counting the filter's solutions, %s", s.Puzzle, roughDuration(s.Took))
	}
	return fmt.Sprintf("%s is not in the catalog: counting the filter's solutions, %s", s.Puzzle, roughDuration(s.Took))
}

// Resumes is false: the units saved are found as the count starts, and
// Expect is the whole count's time.
func (s SearchCount) Resumes() bool { return false }

// UnitKey is the key the count's units are saved under (see
// solve.Counter.Key).
func (s SearchCount) UnitKey() []byte { return s.counter.Key() }

// Count is Run's, with the answer to keep as a list.
func (s SearchCount) Count(ctx context.Context, saved map[int]int64, save func(unit int, solutions int64), progress Progress) (int64, []catalog.Answer, error) {
	n, a, err := s.Run(ctx, saved, save, progress)
	return n, []catalog.Answer{a}, err
}
