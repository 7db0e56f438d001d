package query

import (
	"context"
	"fmt"
	"math"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/enumerate"
)

// Counts past the sizes solcat counts whole (queens:24 to 32): a filter
// that leaves little enough work is counted exactly by the row-by-row
// search under it, as constrained counts are, with no record of the
// puzzle needed. How long it would take is judged first, from Knuth's
// estimate of the search's nodes and the search's measured speed.

// PastReach reports whether p is a queens puzzle too large to count whole
// that a filter may still count.
func PastReach(p canon.Puzzle) bool {
	return p.Kind == canon.Queens && p.N > enumerate.MaxCountedQueens && p.N <= enumerate.MaxConstrainedQueens
}

// MaxSearchCount is the longest a count past reach is let run, as judged
// before it starts; longer ones are left to solcat estimate.
const MaxSearchCount = time.Hour

// A SearchCount is a filter's count past reach, judged and ready to run.
type SearchCount struct {
	Puzzle   canon.Puzzle
	Filter   Filter
	Question []byte
	Nodes    float64       // Knuth's estimate of the search's nodes
	Took     time.Duration // how long it should take
	Workers  int
	counter  *enumerate.ConstrainedCounter
}

// PlanSearchCount judges the count of f on p, on workers goroutines.
func PlanSearchCount(p canon.Puzzle, f Filter, workers int) (SearchCount, error) {
	switch {
	case !PastReach(p):
		return SearchCount{}, fmt.Errorf("%s is counted whole by a count-only build", p)
	case len(f.Cells) == 0:
		return SearchCount{}, &PastReachError{Puzzle: p, CountedUpTo: enumerate.MaxCountedQueens, NoCells: true}
	case f.UpToSymmetry || f.Class != 0 || f.Orbit != 0 || f.Props != 0:
		return SearchCount{}, &PastReachError{Puzzle: p, CountedUpTo: enumerate.MaxCountedQueens}
	}
	if err := f.Validate(p); err != nil {
		return SearchCount{}, err
	}
	c := queensConstraint(p, f)
	counter, err := enumerate.NewConstrainedCounter(c)
	if err != nil {
		return SearchCount{}, err
	}
	s := SearchCount{Puzzle: p, Filter: f, Question: question(p, f), Workers: max(workers, 1), counter: counter}
	s.Nodes = counter.SearchNodes(max(16, 16384/max(1, len(counter.Units()))), 1)
	// Its units are the columns of one row: no more goroutines than those.
	rate := enumerate.SearchRate() * float64(max(1, min(s.Workers, len(counter.Units()))))
	s.Took = time.Duration(math.Min(s.Nodes/rate, 1e9) * float64(time.Second))
	return s, nil
}

// TooLong says why the count is left to an estimate, or "".
func (s SearchCount) TooLong() string {
	if s.Took <= MaxSearchCount {
		return ""
	}
	flags := ""
	for _, c := range s.Filter.Cells {
		flags += fmt.Sprintf(" --cell %d,%d=%d", c.Row, c.Col, c.Value)
	}
	return fmt.Sprintf("counting %s %s exactly would take %s (about %.2g search nodes); 'solcat estimate %s%s' estimates it in seconds",
		s.Puzzle, s.Filter.String(s.Puzzle), roughDuration(s.Took), s.Nodes, s.Puzzle, flags)
}

// Explain says how the count would go.
func (s SearchCount) Explain() PlanReport {
	r := PlanReport{Puzzle: s.Puzzle.String(), Storage: "none", Way: "constrained count", Workers: s.Workers}
	r.Detail = append(r.Detail,
		fmt.Sprintf("answer: the row-by-row search under the filter, exact, on %s; %s is too large to count whole, and needs no record", canon.Plural(int64(s.Workers), "goroutine"), s.Puzzle),
		fmt.Sprintf("estimate: %s, from Knuth's estimate of %.3g search nodes and the search's measured speed", roughDuration(s.Took), s.Nodes))
	if why := s.TooLong(); why != "" {
		r.Detail = append(r.Detail, "refused: "+why)
	}
	r.Detail = append(r.Detail, "filter: "+s.Filter.String(s.Puzzle))
	return r
}

// Units is how many units the count is cut into (each a pair of columns
// of the first rows the filter leaves a choice in), the grain at which it
// is saved and resumed.
func (s SearchCount) Units() int { return len(s.counter.Units()) }

// Run counts the units not in saved (counts of units by index, from an
// earlier run that stopped), handing each unit counted to save (if not
// nil) and telling progress, and gives the answer to keep.
func (s SearchCount) Run(ctx context.Context, saved map[int]int64, save func(unit int, solutions int64), progress Progress) (int64, catalog.Answer, error) {
	q := s.counter
	began := time.Now()
	var total int64
	var todo []int
	for i := range q.Units() {
		if n, ok := saved[i]; ok {
			total += n
		} else {
			todo = append(todo, i)
		}
	}
	units := len(q.Units())
	done := units - len(todo)
	err := q.Count(ctx, todo, s.Workers, func(i int, n int64) error {
		total += n
		done++
		if save != nil {
			save(i, n)
		}
		if progress != nil {
			progress(done, units)
		}
		return nil
	})
	a := catalog.Answer{Puzzle: s.Puzzle.String(), Question: s.Question, Filter: s.Filter.String(s.Puzzle), Solutions: total,
		Method: q.Method(), Seconds: time.Since(began).Seconds(), Workers: s.Workers}
	return total, a, err
}

// PastReachError is a count of queens past the sizes counted whole that
// the search under a filter cannot make: the filter has no cell condition
// (NoCells), or conditions other than cells.
type PastReachError struct {
	Puzzle      canon.Puzzle
	CountedUpTo int // the largest N counted whole
	NoCells     bool
}

func (e *PastReachError) Error() string {
	if e.NoCells {
		return fmt.Sprintf("%s is too large to count whole; it is counted under cell conditions, or estimated", e.Puzzle)
	}
	return fmt.Sprintf("past queens:%d only cell conditions are counted", e.CountedUpTo)
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
	Refusal() string    // why the count is not run, or ""
	Expect() time.Duration
	Announce() string // before a long count: what runs, for how long
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

// Refusal is TooLong's.
func (s SearchCount) Refusal() string { return s.TooLong() }

// Expect is how long the count should take.
func (s SearchCount) Expect() time.Duration { return s.Took }

// Announce says, before a long count, what runs and for how long.
func (s SearchCount) Announce() string {
	return fmt.Sprintf("%s is too large to count whole: counting the filter's solutions, %s", s.Puzzle, roughDuration(s.Took))
}

// UnitKey is the key the count's units are saved under.
func (s SearchCount) UnitKey() []byte { return s.counter.UnitsKey() }

// Count is Run's, with the answer to keep as a list.
func (s SearchCount) Count(ctx context.Context, saved map[int]int64, save func(unit int, solutions int64), progress Progress) (int64, []catalog.Answer, error) {
	n, a, err := s.Run(ctx, saved, save, progress)
	return n, []catalog.Answer{a}, err
}
