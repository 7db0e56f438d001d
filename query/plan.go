package query

import (
	"context"
	"fmt"
	"runtime"
	"strings"

	"solcat/canon"
	"solcat/catalog"
	"solcat/query/solve"
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

var askNames = map[Ask]string{AskCount: "count", AskCountClasses: "count classes", AskList: "list", AskClasses: "classes", AskStats: "stats"}

func (a Ask) String() string { return askNames[a] }

// Question is a question about one puzzle.
type Question struct {
	Ask    Ask
	Filter Filter
	Window Window  // AskList, AskClasses
	By     StatsBy // AskStats
}

// Window limits a listing to Limit items after the first Offset (Limit <
// 0: no limit).
type Window struct{ Limit, Offset int64 }

// Way is how a plan answers.
type Way int

const (
	FromRecord       Way = iota // the puzzle's record: its counts and orbit split
	FromBreakdown               // the counts its build recorded by one cell or by properties
	PrefixRange                 // the filter fixes the first cells: the size of their ID range
	Jump                        // no filter: straight to the IDs asked for
	ClassMembers                // one class: its members' IDs, from the images of its form
	BlockScan                   // read solution blocks (all, or a prefix's ID range) and test each
	ClassScan                   // read classes, the conditions pulled back onto each canonical form
	ClassExpand                 // read classes in ID order and expand each into its members
	ConstrainedCount            // counted again by the fast counter with the filter's squares fixed
	FromAnswer                  // an answer kept from an earlier constrained count
	ProvedEmpty                 // the filter's cells cannot all hold: nothing matches, nothing is read
)

var wayNames = map[Way]string{
	FromRecord: "record", FromBreakdown: "recorded breakdown", PrefixRange: "prefix ID range", Jump: "direct jump",
	ClassMembers: "class members", BlockScan: "solution block scan", ClassScan: "class scan", ClassExpand: "class expansion",
	ConstrainedCount: "constrained count", FromAnswer: "kept answer", ProvedEmpty: "proved empty",
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
	Workers  int // goroutines that read (or count) at once
	// Progress, when set, hears how far a constrained count is.
	Progress Progress
	// SaveUnit, when set, hears each unit of a constrained count as it is
	// counted (see Resume), from one goroutine at a time.
	SaveUnit func(unit int, solutions int64)
	// ListedClasses, when not -1, is how many classes a class scan or
	// expansion reads: only those the catalog lists as having the
	// properties or orbit sizes asked for.
	ListedClasses int64
	run           *solve.Counter   // ConstrainedCount: the count, once begun
	answer        catalog.Answer   // FromAnswer
	counted       []catalog.Answer // ConstrainedCount, once run: what to keep (see Counted)
	// from, when not 0: the rows with lower IDs were given by an earlier
	// piece of a stream (see resume).
	from int64

	// The filter's cell conditions, as the plan tests them.
	rest  []byteCondition // on a solution's cells, beyond the prefix
	cells []byteCondition // on a solution's cells, all of them
	// imageConds[k] holds for cells x exactly when the conditions hold for
	// the image of x under symmetry canon.All[k]: a class's form tells from
	// them which members match, and up to symmetry a solution matches when
	// one of the 8 holds (rest and cells are then empty).
	imageConds [8][]byteCondition
}

// Plan plans a question: it checks the question (its filter against the
// puzzle's board and values, its class against the record) and takes the
// first way of the planner's table that applies.
func (t *BoundPuzzle) Plan(ctx context.Context, q Question) (*Plan, error) {
	f := q.Filter
	if err := f.Validate(t.Puzzle); err != nil {
		return nil, err
	}
	if f.Props.DudeneyOf() != 0 || q.Ask == AskStats && (q.By.Kind == ByGroup || q.By.Prop.DudeneyOf() != 0) {
		if err := t.needDudeney(ctx); err != nil {
			return nil, err
		}
	}
	if f.Class > t.Record.Classes {
		return nil, outOfRange(ErrNoClass, t.Puzzle, "classes", t.Record.Classes, f.Class)
	}
	p := &Plan{Question: q, Workers: 1, IDs: Range{1, t.Record.Solutions}, Classes: t.classRange(f), ListedClasses: -1}
	conds := f.byteConditions(t.Puzzle)
	p.imageConds = pullBack(t.Puzzle, conds)
	if f.UpToSymmetry {
		conds = nil
	}
	prefix, rest := splitPrefix(conds)
	p.rest, p.cells = rest, conds
	pl := &planning{ctx: ctx, t: t, p: p, f: f, prefix: prefix}
	if err := pl.choose(); err != nil {
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
		if p.ListedClasses >= 0 {
			return p.ListedClasses
		}
		return p.Classes.Len()
	}
	return 0
}

// resume is p for its rows from ID id on (solution IDs of a list, class
// IDs of classes), at most left of them (all if left < 0): how a stream
// read in pieces goes on after the row it stopped at. Streams give their
// rows in ID order, so the rows before id are those already given.
func (t *BoundPuzzle) resume(ctx context.Context, p *Plan, id, left int64) (*Plan, error) {
	q := *p
	q.Question.Window = Window{Limit: left}
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

// classRange is the span of class IDs a filter covers: its class, or all.
func (t *BoundPuzzle) classRange(f Filter) Range {
	if f.Class != 0 {
		return Range{f.Class, f.Class}
	}
	return Range{1, t.Record.Classes}
}

// scanWorkers is how many goroutines a class scan uses: one per core, or
// one for a single class.
func (t *BoundPuzzle) scanWorkers(f Filter) int {
	if f.Class != 0 {
		return 1
	}
	return cores()
}

// cores is how many goroutines a scan of the whole puzzle spreads over.
var cores = runtime.NumCPU

// Explain describes the plan: which storage answers, what it reads.
func (t *BoundPuzzle) Explain(p *Plan) PlanReport {
	r := PlanReport{Puzzle: t.Puzzle.String(), Storage: string(t.Record.Storage), Way: p.Way.String(), Workers: p.Workers}
	storage := map[catalog.Storage]string{
		catalog.StorageSolutions: canon.Plural(t.Record.Solutions, "solution") + " in blocks, " + canon.Plural(t.Record.Classes, "class"),
		catalog.StorageClasses:   canon.Plural(t.Record.Classes, "class") + " as packed canonical forms, " + canon.Plural(t.Record.Solutions, "member") + " expanded on the fly",
		catalog.StorageCounts:    "counts only: " + canon.Plural(t.Record.Solutions, "solution") + ", " + canon.Plural(t.Record.Classes, "class"),
	}
	r.Detail = append(r.Detail, "storage: "+string(t.Record.Storage)+" ("+storage[t.Record.Storage]+")")
	for _, a := range planner {
		if a.way == p.Way {
			a.explain(t, p, &r)
			break
		}
	}
	// After the answer's lines: pages quote the answer as the second.
	switch {
	case t.store != nil:
		r.Detail = append(r.Detail, "checks: "+t.store.Checks())
		r.OlderLayout = t.Record.Storage == catalog.StorageSolutions && t.store.BlockLayout() < 3 ||
			t.Record.Storage == catalog.StorageClasses && !t.store.ClassIndexed()
	case t.Record.Storage == catalog.StorageCounts:
		r.Detail = append(r.Detail, "checks: the record and kept answers are sealed: one that does not match its seal is never printed")
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
	// OlderLayout says the puzzle is stored in an older layout, which a
	// build of it stores anew.
	OlderLayout bool `json:"older_layout,omitempty"`
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

// classesRead says which classes a scan reads.
func classesRead(p *Plan) string {
	if p.ListedClasses > 0 {
		return fmt.Sprintf("only the %d classes among %d to %d that have the properties or orbit sizes asked for (listed in tables of their own)", p.ListedClasses, p.Classes.Lo, p.Classes.Hi)
	}
	return fmt.Sprintf("classes %d to %d (%s)", p.Classes.Lo, p.Classes.Hi, canon.Plural(p.Classes.Len(), "class"))
}
