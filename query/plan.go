package query

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"

	"solcat/canon"
	"solcat/catalog"
)

// A question is planned once into a Plan that says how it will be
// answered, then the plan is run: count, list, classes, stats, show and
// export all go through Plan, and --explain prints it.

// Ask is what a question asks for.
type Ask int

const (
	AskCount        Ask = iota // how many solutions match
	AskCountClasses            // how many classes have a matching member
	AskList                    // the matching solutions, in ID order
	AskClasses                 // the classes with a matching member, in class ID order
	AskStats                   // a distribution over the matching solutions
)

// Question is a question about one puzzle.
type Question struct {
	Ask    Ask
	Filter Filter
	Page   Page    // AskList, AskClasses
	By     StatsBy // AskStats
}

// Page limits a listing. Limit < 0 means no limit.
type Page struct{ Limit, Offset int64 }

// Way is how a plan answers.
type Way int

const (
	FromRecord    Way = iota // the puzzle's record: its counts and orbit split
	FromBreakdown            // the counts its build recorded by one cell or by properties
	PrefixRange              // the filter fixes the first cells: the size of their ID range
	Jump                     // no filter: straight to the IDs asked for
	ClassMembers             // one class: its members' IDs, from the images of its form
	BlockScan                // read solution blocks (all, or a prefix's ID range) and test each
	ClassScan                // read classes, the conditions pulled back onto each canonical form
	ClassExpand              // read classes in ID order and expand each into its members
)

var wayNames = map[Way]string{
	FromRecord: "record", FromBreakdown: "recorded breakdown", PrefixRange: "prefix ID range", Jump: "direct jump",
	ClassMembers: "class members", BlockScan: "solution block scan", ClassScan: "class scan", ClassExpand: "class expansion",
}

func (w Way) String() string { return wayNames[w] }

// Range is an inclusive range of IDs; empty when Lo > Hi.
type Range struct{ Lo, Hi int64 }

// Len is how many IDs the range holds.
func (r Range) Len() int64 { return max(r.Hi-r.Lo+1, 0) }

// Plan is how a question will be answered.
type Plan struct {
	Question Question
	Way      Way
	IDs      Range   // the solution IDs read (PrefixRange, Jump, BlockScan)
	Classes  Range   // the class IDs read (ClassScan, ClassExpand, Jump over classes)
	Members  []int64 // ClassMembers: the solution IDs of the class
	Skip     int64   // Jump in ClassExpand: members of the first class skipped
	Stat     catalog.Stat
	Workers  int // goroutines that read at once
	// Few, when not -1: a scan of a puzzle stored as its classes reads only
	// this many classes (those with the properties or orbits asked for).
	Few int64
	// from, when not 0: the rows with lower IDs were given by an earlier
	// piece of a stream (see resume).
	from int64

	// The filter's cell conditions, as the plan tests them.
	rest   []byteCondition     // on a solution's cells, beyond the prefix
	cells  []byteCondition     // on a solution's cells, all of them
	anyOf  *[8][]byteCondition // --up-to-symmetry: one group must hold
	pulled [8][]byteCondition  // pulled back through each symmetry onto a canonical form
}

// Plan plans a question.
func (t *Target) Plan(ctx context.Context, q Question) (*Plan, error) {
	f := q.Filter
	if err := f.Validate(t.Puzzle); err != nil {
		return nil, err
	}
	if f.Props.DudeneyOf() != 0 || q.Ask == AskStats && (q.By.What == "group" || q.By.Prop.DudeneyOf() != 0) {
		if err := t.needDudeney(ctx); err != nil {
			return nil, err
		}
	}
	if f.Class > t.Record.Classes {
		return nil, outOfRange(ErrNoClass, t.Puzzle, "classes", t.Record.Classes, f.Class)
	}
	p := &Plan{Question: q, Workers: 1, IDs: Range{1, t.Record.Solutions}, Classes: t.classRange(f), Few: -1}
	conds := f.byteConditions(t.Puzzle)
	p.pulled = pullBack(t.Puzzle, conds)
	if f.UpToSymmetry && len(conds) > 0 {
		p.anyOf, conds = &p.pulled, nil
	}
	prefix, rest := splitPrefix(conds)
	p.rest, p.cells = rest, conds
	var err error
	switch q.Ask {
	case AskCount, AskCountClasses:
		err = t.planCount(ctx, p, prefix)
	case AskList:
		err = t.planList(ctx, p, prefix)
	case AskClasses:
		err = t.planClasses(ctx, p, prefix)
	default:
		err = t.planStats(ctx, p, prefix)
	}
	if err == nil && p.Way != FromRecord && p.Way != FromBreakdown {
		err = t.countsOnly() // every other way reads what is stored
	}
	if err == nil && (p.Way == ClassScan || p.Way == ClassExpand) && f.Class == 0 {
		n, ok, ferr := t.store.FewClasses(ctx, classFilter(f))
		if ok {
			p.Few = n
		}
		err = ferr
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

// Reads is how many rows a scan reads: solutions (BlockScan) or classes
// (ClassScan, ClassExpand); 0 for the other ways.
func (p *Plan) Reads() int64 {
	switch p.Way {
	case BlockScan:
		return p.IDs.Len()
	case ClassScan, ClassExpand:
		if p.Few >= 0 {
			return p.Few
		}
		return p.Classes.Len()
	}
	return 0
}

// resume is p for its rows from ID id on (solution IDs of a list, class
// IDs of classes), at most left of them (all if left < 0): how a stream
// read in pieces goes on after the row it stopped at. Streams give their
// rows in ID order, so the rows before id are those already given.
func (t *Target) resume(ctx context.Context, p *Plan, id, left int64) (*Plan, error) {
	q := *p
	q.Question.Page = Page{Limit: left}
	q.from = id
	switch {
	case q.Question.Ask == AskClasses:
		q.Classes.Lo = max(q.Classes.Lo, id)
	case t.classesOnly():
		// Members are numbered class by class: start at id's class, and
		// listExpanded passes over its members before id.
		if id > t.Record.Solutions {
			q.Classes.Lo = q.Classes.Hi + 1
			return &q, nil
		}
		class, _, err := t.store.MemberClass(ctx, id)
		if err != nil {
			return nil, err
		}
		q.Classes.Lo, q.Skip = max(q.Classes.Lo, class), 0
	default:
		q.IDs.Lo = max(q.IDs.Lo, id)
	}
	return &q, nil
}

// onlyCells reports whether f has cell conditions and nothing else.
func onlyCells(f Filter) bool {
	return len(f.Cells) > 0 && f.Class == 0 && f.Orbit == 0 && f.Props == 0 && !f.UpToSymmetry
}

func (t *Target) planCount(ctx context.Context, p *Plan, prefix []byte) error {
	f := p.Question.Filter
	classes := p.Question.Ask == AskCountClasses
	switch {
	case f.IsZero():
		p.Way = FromRecord
		return nil
	case len(f.Cells) == 0 && f.Class == 0 && f.Props == 0:
		p.Way = FromRecord // counts by orbit size are in the record
		return nil
	case len(f.Cells) == 0 && f.Class == 0 && f.Props.Stored() == 0 && t.classesOnly():
		p.Way = FromRecord // a queens symmetry type is a choice of orbit sizes
		return nil
	case t.countsOnlyRecord() || t.classesOnly():
		// The build may have recorded counts by one cell, or by properties.
		if onlyCells(f) && len(f.Cells) == 1 {
			c := f.Cells[0]
			if rows, err := t.cat.Breakdown(ctx, t.Record.Name, catalog.StatCell(c.Row, c.Col)); err != nil || rows != nil {
				p.Way, p.Stat = FromBreakdown, catalog.StatCell(c.Row, c.Col)
				return err
			}
		}
		if t.countsOnlyRecord() && f.Props != 0 && len(f.Cells) == 0 && f.Class == 0 && f.Orbit == 0 {
			rows, err := t.cat.Breakdown(ctx, t.Record.Name, catalog.StatProps)
			if err != nil {
				return err
			}
			var counted []string
			for _, r := range rows {
				if canon.Property(r.Value) == f.Props {
					p.Way, p.Stat = FromBreakdown, catalog.StatProps
					return nil
				}
				counted = append(counted, canon.Property(r.Value).String())
			}
			return &CountsOnlyError{Puzzle: t.Puzzle, Record: t.Record, Counted: append(counted[:0:0], counted...)}
		}
		if err := t.countsOnly(); err != nil {
			return err
		}
		p.Way, p.Workers = ClassScan, t.scanWorkers(f)
		return nil
	case f.Class != 0:
		return t.planMembers(ctx, p)
	}
	if len(prefix) > 0 {
		lo, hi, err := t.prefixRange(ctx, prefix)
		if err != nil {
			return err
		}
		p.IDs = Range{lo, hi - 1}
		if len(p.rest) == 0 && !classes && f.Orbit == 0 && f.Props == 0 {
			p.Way = PrefixRange // the answer is the size of the range
			return nil
		}
	}
	// Solution blocks are read faster than classes, except where each
	// queens solution's orbit would have to be worked out from its images.
	if len(prefix) == 0 && t.Puzzle.Kind == canon.Queens && (f.Orbit != 0 || f.Props != 0) {
		p.Way, p.Workers = ClassScan, t.scanWorkers(f)
		return nil
	}
	p.Way = BlockScan
	if p.IDs.Len() > 1<<20 {
		p.Workers = runtime.NumCPU() // one range of IDs per core
	}
	return nil
}

func (t *Target) planMembers(ctx context.Context, p *Plan) error {
	ids, err := t.members(ctx, p.Question.Filter.Class)
	if err != nil {
		return err
	}
	// The members are read one by one: every cell condition is tested.
	p.Way, p.Members, p.rest = ClassMembers, ids, p.cells
	return nil
}

func (t *Target) planList(ctx context.Context, p *Plan, prefix []byte) error {
	f, page := p.Question.Filter, p.Question.Page
	if err := t.countsOnly(); err != nil {
		return err
	}
	if t.classesOnly() {
		// Members are numbered class by class: an offset alone is a class
		// and a member of it.
		p.Way = ClassExpand
		if f.IsZero() {
			if page.Offset >= t.Record.Solutions {
				p.Way, p.Classes = Jump, Range{t.Record.Classes + 1, t.Record.Classes}
				return nil
			}
			class, skip, err := t.store.MemberClass(ctx, page.Offset+1)
			if err != nil {
				return err
			}
			p.Way, p.Classes.Lo, p.Skip = Jump, class, skip
			if page.Limit >= 0 && page.Offset+page.Limit < t.Record.Solutions {
				if p.Classes.Hi, _, err = t.store.MemberClass(ctx, page.Offset+page.Limit); err != nil {
					return err
				}
			}
		} else if page.Offset > 0 {
			p.Workers = t.scanWorkers(f) // the matches before the page are counted, not expanded
		}
		return nil
	}
	switch {
	case f.IsZero():
		p.Way, p.IDs.Lo = Jump, page.Offset+1
		if page.Limit >= 0 {
			p.IDs.Hi = min(p.IDs.Hi, page.Offset+page.Limit)
		}
		return nil
	case f.Class != 0:
		return t.planMembers(ctx, p)
	case len(prefix) > 0:
		lo, hi, err := t.prefixRange(ctx, prefix)
		if err != nil {
			return err
		}
		p.IDs = Range{lo, hi - 1}
	}
	p.Way = BlockScan
	return nil
}

func (t *Target) planClasses(ctx context.Context, p *Plan, prefix []byte) error {
	f, page := p.Question.Filter, p.Question.Page
	if err := t.countsOnly(); err != nil {
		return err
	}
	switch {
	case f.IsZero():
		p.Way, p.Classes.Lo = Jump, page.Offset+1
		if page.Limit >= 0 {
			p.Classes.Hi = min(p.Classes.Hi, page.Offset+page.Limit)
		}
	case t.classesOnly() || (len(prefix) == 0 || f.UpToSymmetry) && f.Class == 0:
		p.Way = ClassScan
		if page.Offset > 0 {
			p.Workers = t.scanWorkers(f) // the matches before the page are counted on every core
		}
	case f.Class != 0:
		return t.planMembers(ctx, p)
	default:
		lo, hi, err := t.prefixRange(ctx, prefix)
		if err != nil {
			return err
		}
		p.Way, p.IDs = BlockScan, Range{lo, hi - 1}
	}
	return nil
}

func (t *Target) planStats(ctx context.Context, p *Plan, prefix []byte) error {
	f, by := p.Question.Filter, p.Question.By
	if f.IsZero() {
		switch {
		case by.What == "orbit":
			p.Way = FromRecord
			return nil
		case by.What == "heatmap" && (t.countsOnlyRecord() || t.classesOnly()):
			// Every cell's counts may be recorded (stored magic:5).
			stat := catalog.StatCell(t.Puzzle.N, t.Puzzle.N)
			if rows, err := t.cat.Breakdown(ctx, t.Record.Name, stat); err != nil || rows != nil {
				p.Way, p.Stat = FromBreakdown, stat
				return err
			}
		case by.What == "cell" && (t.countsOnlyRecord() || t.classesOnly()),
			by.What == "row" && t.classesOnly(): // a row's counts are its cells'
			stat := catalog.StatCell(by.Row, max(by.Col, 1))
			if rows, err := t.cat.Breakdown(ctx, t.Record.Name, stat); err != nil || rows != nil {
				p.Way, p.Stat = FromBreakdown, stat
				return err
			}
		case by.What == "prop" && (t.countsOnlyRecord() || t.classesOnly()):
			rows, err := t.cat.Breakdown(ctx, t.Record.Name, catalog.StatProps)
			if err != nil {
				return err
			}
			if slices.ContainsFunc(rows, func(r catalog.Breakdown) bool { return canon.Property(r.Value) == by.Prop }) {
				p.Way, p.Stat = FromBreakdown, catalog.StatProps
				return nil
			}
		}
	}
	if err := t.countsOnly(); err != nil {
		return err
	}
	// A prefix on a puzzle stored solution by solution is a range of IDs:
	// read its solutions, on one goroutine, when they are much fewer than
	// the classes (a class scan runs on every core).
	if len(prefix) > 0 && !t.classesOnly() && by.What != "heatmap" && f.Class == 0 {
		lo, hi, err := t.prefixRange(ctx, prefix)
		if err != nil {
			return err
		}
		if p.IDs = (Range{lo, hi - 1}); p.IDs.Len() <= t.Record.Classes/8 {
			p.Way = BlockScan
			return nil
		}
		p.IDs = Range{1, t.Record.Solutions}
	}
	p.Way, p.Workers = ClassScan, t.scanWorkers(f)
	return nil
}

// classRange is the span of class IDs a filter covers: its class, or all.
func (t *Target) classRange(f Filter) Range {
	if f.Class != 0 {
		return Range{f.Class, f.Class}
	}
	return Range{1, t.Record.Classes}
}

// scanWorkers is how many goroutines a class scan uses: one per core, or
// one for a single class.
func (t *Target) scanWorkers(f Filter) int {
	if f.Class != 0 {
		return 1
	}
	return runtime.NumCPU()
}

// Explain describes the plan: which storage answers, what it reads.
func (t *Target) Explain(p *Plan) PlanReport {
	r := PlanReport{Puzzle: t.Puzzle.String(), Storage: string(t.Record.Storage), Way: p.Way.String(), Workers: p.Workers}
	storage := map[catalog.Storage]string{
		catalog.StorageSolutions: fmt.Sprintf("%d solutions in blocks, %d classes", t.Record.Solutions, t.Record.Classes),
		catalog.StorageClasses:   fmt.Sprintf("%d classes as packed canonical forms, %d members expanded on the fly", t.Record.Classes, t.Record.Solutions),
		catalog.StorageCounts:    fmt.Sprintf("counts only: %d solutions, %d classes", t.Record.Solutions, t.Record.Classes),
	}
	r.Detail = append(r.Detail, "storage: "+string(t.Record.Storage)+" ("+storage[t.Record.Storage]+")")
	ids := func(rg Range) []int64 { return []int64{rg.Lo, rg.Hi} }
	switch p.Way {
	case FromRecord:
		r.Detail = append(r.Detail, "answer: from the puzzle's record (its counts and classes by orbit size); nothing else is read")
	case FromBreakdown:
		by := p.Stat.String()
		if p.Question.By.What == "row" { // a row's counts are its cells'
			by = fmt.Sprintf("the cells of row %d", p.Question.By.Row)
		}
		r.Detail = append(r.Detail, fmt.Sprintf("answer: from the counts the build recorded by %s; nothing else is read", by))
	case PrefixRange:
		r.SolutionIDs = ids(p.IDs)
		if p.IDs.Len() == 0 {
			r.Detail = append(r.Detail, fmt.Sprintf("answer: the filter fixes the first cells, and IDs follow their order: no solution begins so, found by binary search (about %d solutions read)", 2*bitsOf(t.Record.Solutions)))
			break
		}
		r.Detail = append(r.Detail, fmt.Sprintf("answer: the filter fixes the first cells, and IDs follow their order: the solutions are IDs %d to %d, found by binary search (about %d solutions read)", p.IDs.Lo, p.IDs.Hi, 2*bitsOf(t.Record.Solutions)))
	case Jump:
		byClass := t.classesOnly() || p.Question.Ask == AskClasses // the plan's range is of classes
		switch {
		case byClass && p.Classes.Len() == 0, !byClass && p.IDs.Len() == 0:
			r.Detail = append(r.Detail, "answer: no filter, and the offset is past the last one: nothing is read")
		case p.Question.Ask == AskClasses:
			r.ClassIDs = ids(p.Classes)
			r.Detail = append(r.Detail, fmt.Sprintf("answer: no filter, so the offset is a class ID: classes %d to %d are read", p.Classes.Lo, p.Classes.Hi))
		case t.classesOnly():
			r.ClassIDs = ids(p.Classes)
			r.Detail = append(r.Detail, fmt.Sprintf("answer: no filter, so the offset is a solution ID, found by the members' numbering: member %d of class %d onwards; classes %d to %d are read", p.Skip+1, p.Classes.Lo, p.Classes.Lo, p.Classes.Hi))
		default:
			r.SolutionIDs = ids(p.IDs)
			r.Detail = append(r.Detail, fmt.Sprintf("answer: no filter, so the offset is a solution ID: solutions %d to %d are read", p.IDs.Lo, p.IDs.Hi))
		}
	case ClassMembers:
		r.ClassIDs = ids(p.Classes)
		r.Detail = append(r.Detail, fmt.Sprintf("answer: the members of class %d, found by binary search for each image of its canonical form: %d solutions read", p.Classes.Lo, len(p.Members)))
	case BlockScan:
		r.SolutionIDs = ids(p.IDs)
		if p.IDs.Len() == 0 {
			r.Detail = append(r.Detail, "answer: the filter fixes the first cells, and no solution begins so: nothing is read")
			break
		}
		r.Detail = append(r.Detail, fmt.Sprintf("answer: reads the solution blocks of IDs %d to %d (%d solutions) and tests each, on %d goroutine(s)", p.IDs.Lo, p.IDs.Hi, p.IDs.Len(), p.Workers))
	case ClassScan, ClassExpand:
		if p.Few == 0 {
			r.Detail = append(r.Detail, "answer: no class has the properties or orbit sizes asked for: nothing is read")
			break
		}
		r.ClassIDs = ids(p.Classes)
		if p.Way == ClassExpand {
			r.Detail = append(r.Detail, fmt.Sprintf("answer: reads %s in order and expands each into its members", classesRead(p)))
			if offset := p.Question.Page.Offset; offset > 0 {
				r.Detail = append(r.Detail, fmt.Sprintf("offset: the first %d matching members are counted through the canonical forms, on %d goroutine(s), not expanded", offset, p.Workers))
			}
			break
		}
		if p.Question.Ask == AskClasses { // a listing: read in order
			r.Detail = append(r.Detail, fmt.Sprintf("answer: reads %s in order and tests each member through its canonical form", classesRead(p)))
			if offset := p.Question.Page.Offset; offset > 0 {
				r.Detail = append(r.Detail, fmt.Sprintf("offset: the first %d matching classes are counted in spans of classes, on %d goroutine(s)", offset, p.Workers))
			}
			break
		}
		r.Detail = append(r.Detail, fmt.Sprintf("answer: reads %s and tests each member through its canonical form, on %d goroutine(s)", classesRead(p), p.Workers))
	}
	if f := p.Question.Filter; !f.IsZero() {
		r.Detail = append(r.Detail, "filter: "+f.String(t.Puzzle))
	}
	return r
}

// PlanReport is a plan as --explain shows it.
type PlanReport struct {
	Puzzle      string   `json:"puzzle"`
	Storage     string   `json:"storage"`
	Way         string   `json:"way"`
	SolutionIDs []int64  `json:"solution_ids,omitempty"` // the range read, first and last
	ClassIDs    []int64  `json:"class_ids,omitempty"`
	Workers     int      `json:"workers"`
	Detail      []string `json:"detail"`
}

// Text is the report as lines for people.
func (r PlanReport) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", r.Puzzle, r.Way)
	for _, d := range r.Detail {
		fmt.Fprintf(&b, "  %s\n", d)
	}
	return b.String()
}

func bitsOf(n int64) int {
	k := 0
	for n > 0 {
		k++
		n >>= 1
	}
	return k
}

// classesRead says which classes a scan reads.
func classesRead(p *Plan) string {
	if p.Few > 0 {
		return fmt.Sprintf("only the %d classes among %d to %d that have the properties or orbit sizes asked for (listed in tables of their own)", p.Few, p.Classes.Lo, p.Classes.Hi)
	}
	return fmt.Sprintf("classes %d to %d (%d classes)", p.Classes.Lo, p.Classes.Hi, p.Classes.Len())
}
