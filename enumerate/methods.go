package enumerate

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"time"

	"solcat/canon"
)

// A Method is one way to enumerate a puzzle, kept so that methods can be
// compared side by side (solcat bench). With a nil emit a method only
// counts; with an emit it hands over every solution once, in its own order.
type Method struct {
	Name  string
	About string
	Run   func(ctx context.Context, n int, emit Emit) (Stats, error)
}

// Methods lists the methods for a puzzle kind, slowest first. The last one
// is the project's own.
func Methods(kind canon.Kind) []Method {
	if kind == canon.Magic {
		return []Method{
			{"celldfs", "cell-order DFS, forced last cells of rows and the anti-diagonal", magicCellDFS},
			{"rowset", "rows chosen as sets summing to the magic constant, then permuted; last row forced", magicRowSets},
			{"solcat", "fill order that completes lines early, forced cells, sum bounds", func(ctx context.Context, n int, emit Emit) (Stats, error) {
				return Magic(ctx, n, Options{}, orDiscard(emit))
			}},
		}
	}
	return []Method{
		{"array", "backtracking with column and diagonal arrays, one thread", queensArray},
		{"bitmask", "bitmask backtracking, one thread", queensBitmask},
		{"textbook", "bitmask backtracking with first-row mirror halving, one thread", queensTextbook},
		{"symmetric", "symmetry-reduced search of canonical forms, one thread", func(ctx context.Context, n int, emit Emit) (Stats, error) {
			return queensSymmetric(ctx, n, 1, emit)
		}},
		{"join", "top and bottom halves joined per column set, symmetry (4x) and Burnside for classes, one thread", func(ctx context.Context, n int, emit Emit) (Stats, error) {
			return queensJoin(ctx, n, 1, emit)
		}},
		{"solcat", "the counter of count-only builds on every core: the halves counter on CPUs with AVX-512, else the join counter (which lists solutions)", func(ctx context.Context, n int, emit Emit) (Stats, error) {
			if emit == nil && n >= 4 {
				c, err := CountQueensCountOnly(ctx, n, 0)
				return Stats{Solutions: c.Solutions(), Nodes: c.Nodes}, err
			}
			return queensJoin(ctx, n, 0, emit)
		}},
	}
}

// MethodsNamed gives the methods of kind with the given names, in their
// order, each once; every method of kind when names is empty.
func MethodsNamed(kind canon.Kind, names []string) ([]Method, error) {
	all := Methods(kind)
	if len(names) == 0 {
		return all, nil
	}
	var chosen []Method
	for _, name := range names {
		i := slices.IndexFunc(all, func(m Method) bool { return m.Name == name })
		if i < 0 {
			var have []string
			for _, m := range all {
				have = append(have, m.Name)
			}
			return nil, fmt.Errorf("no method %q for %s; choose from %v", name, kind, have)
		}
		if !slices.ContainsFunc(chosen, func(m Method) bool { return m.Name == name }) {
			chosen = append(chosen, all[i]) // a method named twice runs once
		}
	}
	return chosen, nil
}

func orDiscard(emit Emit) Emit {
	if emit == nil {
		return func([]byte) error { return nil }
	}
	return emit
}

func queensArray(ctx context.Context, n int, emit Emit) (Stats, error) {
	var st Stats
	cols := make([]bool, n)
	diag1 := make([]bool, 2*n) // r+c
	diag2 := make([]bool, 2*n) // r-c+n
	sol := make([]byte, n)
	var err error
	var place func(r int)
	place = func(r int) {
		if r == n {
			st.Solutions++
			if emit != nil && err == nil {
				err = emit(sol)
			}
			return
		}
		for c := 0; c < n; c++ {
			if cols[c] || diag1[r+c] || diag2[r-c+n] {
				continue
			}
			st.Nodes++
			cols[c], diag1[r+c], diag2[r-c+n] = true, true, true
			sol[r] = byte(c)
			place(r + 1)
			cols[c], diag1[r+c], diag2[r-c+n] = false, false, false
		}
	}
	place(0)
	return st, err
}

// bitmaskSearch is the plain recursive bitmask backtracking.
type bitmaskSearch struct {
	n    int
	all  uint32
	sol  []byte
	st   Stats
	emit func([]byte)
}

func (s *bitmaskSearch) place(r int, left, down, right uint32) {
	if down == s.all {
		s.st.Solutions++
		if s.emit != nil {
			s.emit(s.sol)
		}
		return
	}
	free := s.all &^ (left | down | right)
	for free != 0 {
		bit := free & -free
		free ^= bit
		s.st.Nodes++
		s.sol[r] = byte(bits.TrailingZeros32(bit))
		s.place(r+1, (left|bit)<<1&s.all, down|bit, (right|bit)>>1)
	}
}

func queensBitmask(ctx context.Context, n int, emit Emit) (Stats, error) {
	s := &bitmaskSearch{n: n, all: 1<<n - 1, sol: make([]byte, n)}
	var err error
	if emit != nil {
		s.emit = func(sol []byte) {
			if err == nil {
				err = emit(sol)
			}
		}
	}
	s.place(0, 0, 0, 0)
	return s.st, err
}

// queensTextbook searches first-row queens on the left half only; each
// solution found stands for itself and its mirror image, except with the
// queen in the middle column, which is searched once.
func queensTextbook(ctx context.Context, n int, emit Emit) (Stats, error) {
	if emit == nil {
		return TextbookQueens(n), nil
	}
	s := &bitmaskSearch{n: n, all: 1<<n - 1, sol: make([]byte, n)}
	mirror := make([]byte, n)
	var err error
	middle := false
	s.emit = func(sol []byte) {
		if err == nil {
			err = emit(sol)
		}
		if !middle && err == nil {
			for r, c := range sol {
				mirror[r] = byte(n-1) - c
			}
			err = emit(mirror)
		}
	}
	st := TextbookQueens(n)
	for c := 0; c < (n+1)/2; c++ {
		middle = n%2 == 1 && c == n/2
		bit := uint32(1) << c
		s.sol[0] = byte(c)
		s.place(1, bit<<1&s.all, bit, bit>>1)
	}
	return st, err
}

// queensSymmetric counts by classes; with an emit it expands every
// canonical form into its distinct images.
func queensSymmetric(ctx context.Context, n, workers int, emit Emit) (Stats, error) {
	if emit == nil {
		c, err := CountQueens(ctx, n, workers)
		return Stats{Solutions: c.Solutions(), Nodes: c.Nodes}, err
	}
	images := canon.NewImages(canon.Puzzle{Kind: canon.Queens, N: n})
	c, err := QueensClasses(ctx, n, Options{Workers: workers}, func(form []byte, orbit int) error {
		return images.Distinct(form, func(_ canon.Symmetry, img []byte) error { return emit(img) })
	})
	return Stats{Solutions: c.Solutions(), Nodes: c.Nodes}, err
}

// Timing is one method's result in a benchmark: its counts, the median of
// its run times and how many times the fastest method's that is.
type Timing struct {
	Method    string
	About     string
	Solutions int64
	Nodes     int64
	Seconds   float64 // the median run
	Ratio     float64 // Seconds over the fastest method's
}

// runStoppable runs a method once and returns at once when ctx ends:
// the plain baselines do not look at ctx in their loops (it would cost them
// time), so a run that ctx stopped is left to finish unseen.
func runStoppable(ctx context.Context, m Method, n int) (Stats, error) {
	type result struct {
		st  Stats
		err error
	}
	done := make(chan result, 1)
	go func() {
		st, err := m.Run(ctx, n, nil)
		done <- result{st, err}
	}()
	select {
	case r := <-done:
		return r.st, r.err
	case <-ctx.Done():
		return Stats{}, ctx.Err()
	}
}

// Bench runs each method runs times on board size n, one after the other.
func Bench(ctx context.Context, n int, methods []Method, runs int) ([]Timing, error) {
	var out []Timing
	for _, m := range methods {
		times := make([]float64, 0, runs)
		var st Stats
		for range runs {
			start := time.Now()
			var err error
			if st, err = runStoppable(ctx, m, n); err != nil {
				return nil, fmt.Errorf("%s: %w", m.Name, err)
			}
			times = append(times, time.Since(start).Seconds())
		}
		slices.Sort(times)
		median := (times[(len(times)-1)/2] + times[len(times)/2]) / 2 // of an even number: the mean of the middle two
		out = append(out, Timing{Method: m.Name, About: m.About, Solutions: st.Solutions, Nodes: st.Nodes, Seconds: median})
	}
	fastest := math.Inf(1)
	for _, t := range out {
		fastest = min(fastest, t.Seconds)
	}
	for i := range out {
		out[i].Ratio = math.Round(1000*out[i].Seconds/max(fastest, 1e-9)) / 1000 // to a thousandth
	}
	return out, nil
}
