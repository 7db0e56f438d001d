package query

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"solcat/canon"
	"solcat/catalog"
)

// The planner is a table. Each way to answer a question is one entry: the
// rules by which it applies (each for some kinds of question), what it
// reads and what that costs, how it fills in the plan and how the plan is
// explained. A question's plan is the first entry, in the table's order,
// that applies to it. The order puts the ways that read least first: the
// record and the counts recorded at build time read nothing else, a jump or
// a class's members a few rows, a prefix two binary searches; the scans
// come last, each with the storage and filters it serves best.
// TestPlannerTable prints the table (testdata/planner.txt).

// answer is one way to answer: an entry of the planner's table.
type answer struct {
	way   Way
	when  []rule
	reads string // what it reads, in words
	costs string // what that costs
	// plan fills in what the way reads: ranges of IDs, members, workers.
	plan func(pl *planning) error
	// explain adds to a report what the plan reads.
	explain func(t *BoundPuzzle, p *Plan, r *PlanReport)
}

// rule is one case in which a way applies, to the questions that ask one
// of asks.
type rule struct {
	asks  []Ask
	text  string
	holds func(pl *planning) bool
}

var (
	askCounts  = []Ask{AskCount, AskCountClasses}
	askStats   = []Ask{AskStats}
	askListing = []Ask{AskList, AskClasses}
	askAny     = slices.Concat(askCounts, askStats, askListing)
)

// planner is the table, in the order in which its ways are tried.
var planner = []answer{
	{
		way: ProvedEmpty,
		when: []rule{
			{askAny, "the filter's cells cannot all hold (Filter.Impossible: two queens that attack, a square asked two things, a value in two cells, a line off the magic sum)", func(pl *planning) bool {
				return pl.f.Impossible(pl.t.Puzzle) != ""
			}},
		},
		reads: "nothing",
		costs: "nothing: no solution can match",
		explain: func(t *BoundPuzzle, p *Plan, r *PlanReport) {
			r.Detail = append(r.Detail, "answer: none: "+p.Question.Filter.Impossible(t.Puzzle)+"; nothing is read")
		},
	},
	{
		way: FromRecord,
		when: []rule{
			{askCounts, "no cell, class or property is asked", func(pl *planning) bool {
				return len(pl.f.Cells) == 0 && pl.f.Class == 0 && pl.f.Props == 0
			}},
			{askCounts, "stored as classes, no cell or class is asked, and only properties that are choices of orbit sizes (a queens symmetry type)", func(pl *planning) bool {
				return pl.asClasses() && len(pl.f.Cells) == 0 && pl.f.Class == 0 && pl.f.Props.Stored() == 0 && pl.f.Props.Board() == 0
			}},
			{askStats, "by orbit size, with no filter", func(pl *planning) bool {
				return pl.f.IsZero() && pl.by().Kind == ByOrbit
			}},
		},
		reads: "the puzzle's record: its counts, and its classes by orbit size",
		costs: "one row, whatever the puzzle's size",
		explain: func(t *BoundPuzzle, p *Plan, r *PlanReport) {
			r.Detail = append(r.Detail, "answer: from the puzzle's record (its counts and classes by orbit size); nothing else is read")
		},
	},
	{
		way: FromBreakdown,
		when: []rule{
			{askCounts, "the filter is one cell, and the build recorded the counts by that cell", func(pl *planning) bool {
				f := pl.f
				onlyCells := len(f.Cells) == 1 && f.Class == 0 && f.Orbit == 0 && f.Props == 0 && !f.UpToSymmetry
				return onlyCells && pl.recorded(catalog.StatCell(f.Cells[0].Row, f.Cells[0].Col))
			}},
			{askCounts, "the filter is properties alone, and the build recorded the counts of that set", func(pl *planning) bool {
				return pl.onlyProps() && pl.propsRecorded(pl.f.Props)
			}},
			{askStats, "no filter, and the build recorded the counts by the cell asked (the heat map: by every cell; by a row or a column: by its cells) or of the property asked", func(pl *planning) bool {
				if !pl.f.IsZero() {
					return false
				}
				by, n := pl.by(), pl.t.Puzzle.N
				switch by.Kind {
				case ByHeatmap:
					return pl.recorded(catalog.StatCell(n, n))
				case ByCell:
					return pl.recorded(catalog.StatCell(by.Row, by.Col))
				case ByRow:
					return pl.recorded(catalog.StatCell(by.Row, 1))
				case ByCol:
					return pl.recorded(catalog.StatCell(1, by.Col))
				case ByProp:
					return pl.propsRecorded(by.Prop)
				}
				return false
			}},
		},
		reads: "the counts the build recorded by the cell, the cells of the row or column or the property set asked",
		costs: "a few rows recorded at build time",
		plan: func(pl *planning) error {
			f, by := pl.f, pl.by()
			switch {
			case pl.p.Question.Ask != AskStats && len(f.Cells) == 1:
				pl.p.Stat = catalog.StatCell(f.Cells[0].Row, f.Cells[0].Col)
			case pl.p.Question.Ask != AskStats, by.Kind == ByProp:
				pl.p.Stat = catalog.StatProps
			case by.Kind == ByHeatmap:
				pl.p.Stat = catalog.StatCell(pl.t.Puzzle.N, pl.t.Puzzle.N)
			case by.Kind == ByCell:
				pl.p.Stat = catalog.StatCell(by.Row, by.Col)
			}
			return nil // a row's statistic reads each cell of the row
		},
		explain: func(t *BoundPuzzle, p *Plan, r *PlanReport) {
			what := fmt.Sprint(p.Stat)
			if by := p.Question.By; p.Question.Ask == AskStats && by.Kind == ByRow {
				what = fmt.Sprintf("the cells of row %d", by.Row)
			} else if p.Question.Ask == AskStats && by.Kind == ByCol {
				what = fmt.Sprintf("the cells of column %d", by.Col)
			}
			r.Detail = append(r.Detail, fmt.Sprintf("answer: from the counts the build recorded by %s; nothing else is read", what))
		},
	},
	{
		way: Jump,
		when: []rule{
			{askListing, "no filter: the offset is the first ID read (stored as classes, a list's offset is a class and a member of it, by the members' numbering)", func(pl *planning) bool {
				return pl.stored() && pl.f.IsZero()
			}},
		},
		reads: "the solutions or classes from the offset on, as many as the page asks",
		costs: "the rows asked for; stored as classes, a binary search for the class the offset falls in",
		plan:  planJump,
		explain: func(t *BoundPuzzle, p *Plan, r *PlanReport) {
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
		},
	},
	{
		way: ClassMembers,
		when: []rule{
			{append(askCounts, askListing...), "stored solution by solution, and a class is asked", func(pl *planning) bool {
				return pl.bySolutions() && pl.f.Class != 0
			}},
		},
		reads: "the class's canonical form, and the solution each of its images is found at",
		costs: "a binary search for each of at most 8 members",
		plan: func(pl *planning) error {
			ids, err := pl.t.members(pl.ctx, pl.f.Class)
			// The members are read one by one: every cell condition is tested.
			pl.p.Members, pl.p.rest = ids, pl.p.cells
			return err
		},
		explain: func(t *BoundPuzzle, p *Plan, r *PlanReport) {
			r.ClassIDs = ids(p.Classes)
			r.Detail = append(r.Detail, fmt.Sprintf("answer: the members of class %d, found by binary search for each image of its canonical form: %d solutions read", p.Classes.Lo, len(p.Members)))
		},
	},
	{
		way: PrefixRange,
		when: []rule{
			{[]Ask{AskCount}, "stored solution by solution, and the filter fixes the first cells and asks nothing else: the answer is the size of their ID range", func(pl *planning) bool {
				f := pl.f
				return pl.bySolutions() && f.Class == 0 && len(pl.prefix) > 0 && len(pl.p.rest) == 0 && f.Orbit == 0 && f.Props == 0
			}},
		},
		reads: "the solutions two binary searches look at: for where the prefix begins, and where its successor does",
		costs: "about 2·log₂(solutions) solutions",
		plan: func(pl *planning) error {
			pl.p.IDs = pl.span()
			return nil
		},
		explain: func(t *BoundPuzzle, p *Plan, r *PlanReport) {
			r.SolutionIDs = ids(p.IDs)
			searched := 2 * bits.Len64(uint64(t.Record.Solutions))
			if p.IDs.Len() == 0 {
				r.Detail = append(r.Detail, fmt.Sprintf("answer: the filter fixes the first cells, and IDs follow their order: no solution begins so, found by binary search (about %d solutions read)", searched))
				return
			}
			r.Detail = append(r.Detail, fmt.Sprintf("answer: the filter fixes the first cells, and IDs follow their order: the solutions are IDs %d to %d, found by binary search (about %d solutions read)", p.IDs.Lo, p.IDs.Hi, searched))
		},
	},
	{
		way: BlockScan,
		when: []rule{
			{askCounts, "stored solution by solution, no class asked, and not a queens orbit size or property without fixed first cells", func(pl *planning) bool {
				return pl.bySolutions() && pl.f.Class == 0 && !pl.queensOrbits()
			}},
			{[]Ask{AskList}, "stored solution by solution, no class asked", func(pl *planning) bool {
				return pl.bySolutions() && pl.f.Class == 0
			}},
			{[]Ask{AskClasses}, "stored solution by solution, no class asked, and the filter fixes the first cells", func(pl *planning) bool {
				return pl.bySolutions() && pl.f.Class == 0 && len(pl.prefix) > 0
			}},
			{askStats, "stored solution by solution, by a row, a column or a cell, and the filter asks only cells: a histogram of each block that may match, from the cells asked alone", func(pl *planning) bool {
				return pl.bySolutions() && blockHistogram(pl.p.Question)
			}},
			{askStats, "stored solution by solution, no class asked, not the heat map, and the filter fixes first cells that hold at most an eighth as many solutions as the puzzle has classes", func(pl *planning) bool {
				return pl.bySolutions() && pl.f.Class == 0 && pl.by().Kind != ByHeatmap && len(pl.prefix) > 0 &&
					pl.span().Len() <= pl.t.Record.Classes/8
			}},
		},
		reads: "the solution blocks of every ID, or of the range of IDs of the fixed first cells, testing each solution",
		costs: "every solution of the range, tested one by one; a count over more than a million IDs takes one range of them per core",
		plan: func(pl *planning) error {
			if len(pl.prefix) > 0 {
				pl.p.IDs = pl.span()
			}
			if q := pl.p.Question; (q.Ask == AskCount || q.Ask == AskCountClasses || blockHistogram(q)) && pl.p.IDs.Len() > 1<<20 {
				pl.p.Workers = cores() // the blocks are shared out among the cores
			}
			return nil
		},
		explain: func(t *BoundPuzzle, p *Plan, r *PlanReport) {
			r.SolutionIDs = ids(p.IDs)
			if p.IDs.Len() == 0 {
				r.Detail = append(r.Detail, "answer: the filter fixes the first cells, and no solution begins so: nothing is read")
				return
			}
			r.Detail = append(r.Detail, fmt.Sprintf("answer: reads the solution blocks of IDs %d to %d (%s) and tests each, on %s", p.IDs.Lo, p.IDs.Hi, canon.Plural(p.IDs.Len(), "solution"), canon.Plural(int64(p.Workers), "goroutine")))
		},
	},
	{
		way: ClassScan,
		when: []rule{
			{askCounts, "stored as classes", func(pl *planning) bool { return pl.asClasses() }},
			{askCounts, "a queens orbit size or property, no class asked, and no fixed first cells: working out each solution's orbit from its images would cost more than reading the classes", func(pl *planning) bool {
				return pl.bySolutions() && pl.f.Class == 0 && pl.queensOrbits()
			}},
			{[]Ask{AskClasses}, "stored as classes, or no class asked and no fixed first cells", func(pl *planning) bool {
				return pl.asClasses() || pl.stored() && pl.f.Class == 0 && len(pl.prefix) == 0
			}},
			{askStats, "stored, and no way above applies", func(pl *planning) bool { return pl.stored() }},
		},
		reads: "every class (or only those listed as having the properties or orbit sizes asked), testing the members through the canonical form",
		costs: "every class, 8 times fewer rows than solutions, one range of them per core (a listing of classes reads in order, and counts the matches before its page on every core)",
		plan: func(pl *planning) error {
			if pl.p.Question.Ask != AskClasses || pl.p.Question.Window.Offset > 0 {
				pl.p.Workers = pl.t.scanWorkers(pl.f) // a listing counts the matches before its page on every core
			}
			return pl.listed()
		},
		explain: func(t *BoundPuzzle, p *Plan, r *PlanReport) {
			if p.ListedClasses == 0 {
				r.Detail = append(r.Detail, "answer: no class has the properties or orbit sizes asked for: nothing is read")
				return
			}
			r.ClassIDs = ids(p.Classes)
			if p.Question.Ask == AskClasses { // a listing: read in order
				r.Detail = append(r.Detail, fmt.Sprintf("answer: reads %s in order and tests each member through its canonical form", classesRead(p)))
				if offset := p.Question.Window.Offset; offset > 0 {
					r.Detail = append(r.Detail, fmt.Sprintf("offset: the first %d matching classes are counted in spans of classes, on %s", offset, canon.Plural(int64(p.Workers), "goroutine")))
				}
				return
			}
			r.Detail = append(r.Detail, fmt.Sprintf("answer: reads %s and tests each member through its canonical form, on %s", classesRead(p), canon.Plural(int64(p.Workers), "goroutine")))
			if board := p.Question.Filter.Props.Board(); board != 0 {
				r.Detail = append(r.Detail, fmt.Sprintf("properties: %s are not stored; each canonical form's squares are tested (a class has them or not as a whole)", board))
			}
		},
	},
	{
		way: ClassExpand,
		when: []rule{
			{[]Ask{AskList}, "stored as classes", func(pl *planning) bool { return pl.asClasses() }},
		},
		reads: "the classes in ID order (or only those listed as having the properties or orbit sizes asked), each that matches expanded into its members",
		costs: "every class up to the page's last, each that matches expanded into up to 8 members; the matches before the page are counted on every core, not expanded",
		plan: func(pl *planning) error {
			if pl.p.Question.Window.Offset > 0 {
				pl.p.Workers = pl.t.scanWorkers(pl.f) // the matches before the page are counted, not expanded
			}
			return pl.listed()
		},
		explain: func(t *BoundPuzzle, p *Plan, r *PlanReport) {
			if p.ListedClasses == 0 {
				r.Detail = append(r.Detail, "answer: no class has the properties or orbit sizes asked for: nothing is read")
				return
			}
			r.ClassIDs = ids(p.Classes)
			r.Detail = append(r.Detail, fmt.Sprintf("answer: reads %s in order and expands each into its members", classesRead(p)))
			if offset := p.Question.Window.Offset; offset > 0 {
				r.Detail = append(r.Detail, fmt.Sprintf("offset: the first %d matching members are counted through the canonical forms, on %s, not expanded", offset, canon.Plural(int64(p.Workers), "goroutine")))
			}
		},
	},
	{
		way: FromAnswer,
		when: []rule{
			{[]Ask{AskCount}, "queens recorded by their counts, the filter is cells alone (or up to symmetry), and an earlier count of it (in any spelling, or of an image of it) was kept", func(pl *planning) bool {
				return pl.constrainable() && pl.kept()
			}},
		},
		reads: "the answer kept from the earlier count",
		costs: "one row",
		plan: func(pl *planning) error {
			return nil // kept fills it in
		},
		explain: func(t *BoundPuzzle, p *Plan, r *PlanReport) {
			a := p.answer
			r.Detail = append(r.Detail, fmt.Sprintf("answer: kept from a count of %s on %s (%s, %.1f s on %s); nothing else is read",
				a.Filter, a.RecordedAt, a.Method, a.Seconds, canon.Plural(int64(a.Workers), "goroutine")))
		},
	},
	{
		way: ConstrainedCount,
		when: []rule{
			{[]Ask{AskCount}, "queens recorded by their counts, and the filter is cells alone (up to symmetry: the union of its images' counts, by inclusion and exclusion)", func(pl *planning) bool {
				return pl.constrainable()
			}},
			{askStats, "queens recorded by their counts, by a row or a column, and the filter is cells alone or none: one count for each square of the line (half of them when the filter is its own mirror image; a column is a row of the transposed board)", func(pl *planning) bool {
				return (pl.by().Kind == ByRow || pl.by().Kind == ByCol) && (pl.f.IsZero() || pl.constrainable())
			}},
		},
		reads: "nothing: the fast counter counts again with the filter's squares fixed",
		costs: "a count of the solutions the filter leaves, on every core: seconds to hours (estimated before it runs)",
		plan: func(pl *planning) error {
			pl.p.Workers = cores()
			return nil
		},
		explain: explainConstrained,
	},
}

// planning is a question being planned: what the rules look at, and what
// they read to decide, kept for the way chosen.
type planning struct {
	ctx     context.Context
	t       *BoundPuzzle
	p       *Plan
	f       Filter
	prefix  []byte // the cells fixed from the first on, as stored
	spanned *Range // the IDs of the solutions that begin with the prefix, once searched
	err     error  // a read that failed: the planning ends with it
}

// choose fills in p by the first way of the table that applies.
func (pl *planning) choose() error {
	for _, a := range planner {
		for _, r := range a.when {
			if !slices.Contains(r.asks, pl.p.Question.Ask) {
				continue
			}
			holds := r.holds(pl)
			if pl.err != nil {
				return pl.err
			}
			if !holds {
				continue
			}
			pl.p.Way = a.way
			if a.plan == nil {
				return nil
			}
			if err := a.plan(pl); err != nil {
				return err
			}
			return pl.err
		}
	}
	return pl.refusal()
}

// refusal says why no way applies: nothing is stored to read (the puzzle
// is recorded by its counts, or stored in a format this solcat no longer
// reads). Asked to count properties of a puzzle recorded by its counts,
// it names those whose counts are recorded.
func (pl *planning) refusal() error {
	err := pl.t.countsOnly()
	var counts *CountsOnlyError
	if errors.As(err, &counts) && pl.p.Question.Ask != AskStats && pl.onlyProps() {
		rows, rerr := pl.t.cat.Breakdown(pl.ctx, pl.t.Record.Name, catalog.StatProps)
		if rerr != nil {
			return rerr
		}
		for _, r := range rows {
			counts.Counted = append(counts.Counted, canon.Property(r.Value).String())
		}
	}
	if err == nil {
		return fmt.Errorf("%s: no way to answer %+v", pl.t.Puzzle, pl.p.Question) // the table lacks a rule
	}
	return err
}

func (pl *planning) by() StatsBy { return pl.p.Question.By }

// stored reports whether what is stored of the puzzle can be read.
func (pl *planning) stored() bool { return pl.t.store != nil }

// asClasses reports whether the puzzle is stored as its classes.
func (pl *planning) asClasses() bool { return pl.t.classesOnly() }

// bySolutions reports whether the puzzle is stored solution by solution.
func (pl *planning) bySolutions() bool { return pl.stored() && !pl.asClasses() }

// countsOnly reports whether the puzzle is recorded by its counts only.
func (pl *planning) countsOnly() bool { return pl.t.countsOnlyRecord() }

// onlyProps reports whether the filter asks properties and nothing else.
func (pl *planning) onlyProps() bool {
	f := pl.f
	return f.Props != 0 && len(f.Cells) == 0 && f.Class == 0 && f.Orbit == 0
}

// queensOrbits reports whether the filter asks a queens orbit size or
// property without fixing the first cells: from solution blocks, each
// solution's orbit would be worked out from its images.
func (pl *planning) queensOrbits() bool {
	return len(pl.prefix) == 0 && pl.t.Puzzle.Kind == canon.Queens && (pl.f.Orbit != 0 || pl.f.Props != 0)
}

// recorded reports whether the build recorded the counts by stat.
func (pl *planning) recorded(stat catalog.Stat) bool {
	rows, err := pl.t.cat.Breakdown(pl.ctx, pl.t.Record.Name, stat)
	pl.err = err
	return rows != nil
}

// propsRecorded reports whether the build recorded the counts of the
// property set props.
func (pl *planning) propsRecorded(props canon.Property) bool {
	rows, err := pl.t.cat.Breakdown(pl.ctx, pl.t.Record.Name, catalog.StatProps)
	pl.err = err
	return slices.ContainsFunc(rows, func(r catalog.Breakdown) bool { return canon.Property(r.Value) == props })
}

// span is the range of IDs of the solutions that begin with the prefix:
// IDs follow the lexicographic order of the cells.
func (pl *planning) span() Range {
	if pl.spanned == nil {
		lo, hi, err := pl.t.prefixRange(pl.ctx, pl.prefix)
		pl.spanned, pl.err = &Range{lo, hi - 1}, err
	}
	return *pl.spanned
}

// listed narrows a scan of the classes to those the catalog lists as
// having the properties or orbit sizes asked, where it lists them.
func (pl *planning) listed() error {
	if pl.f.Class != 0 {
		return nil
	}
	n, ok, err := pl.t.store.FewClasses(pl.ctx, classFilter(pl.f))
	if ok {
		pl.p.ListedClasses = n
	}
	return err
}

// planJump sets the range a jump reads: from the offset on, as many as the
// page asks. Stored as classes, members are numbered class by class, so a
// list's offset is a class and a member of it.
func planJump(pl *planning) error {
	t, p, win := pl.t, pl.p, pl.p.Question.Window
	switch {
	case p.Question.Ask == AskClasses:
		p.Classes.Lo = win.Offset + 1
		if win.Limit >= 0 {
			p.Classes.Hi = min(p.Classes.Hi, win.Offset+win.Limit)
		}
	case t.classesOnly():
		if win.Offset >= t.Record.Solutions {
			p.Classes = Range{t.Record.Classes + 1, t.Record.Classes}
			return nil
		}
		class, skip, err := t.store.MemberClass(pl.ctx, win.Offset+1)
		if err != nil {
			return err
		}
		p.Classes.Lo, p.Skip = class, skip
		if win.Limit >= 0 && win.Offset+win.Limit < t.Record.Solutions {
			if p.Classes.Hi, _, err = t.store.MemberClass(pl.ctx, win.Offset+win.Limit); err != nil {
				return err
			}
		}
	default:
		p.IDs.Lo = win.Offset + 1
		if win.Limit >= 0 {
			p.IDs.Hi = min(p.IDs.Hi, win.Offset+win.Limit)
		}
	}
	return nil
}

func ids(r Range) []int64 { return []int64{r.Lo, r.Hi} }
