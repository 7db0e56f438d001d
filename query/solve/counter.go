package solve

import (
	"context"
	"time"

	"solcat/enumerate"
)

// A Counter is a constrained count of queens: the fast counter under a
// constraint (the halves counter, cut where the filter makes the work
// least or in the middle, or the row-by-row search), in units that are
// counted, saved and resumed one by one. It holds the units counted before
// the count runs (timed to judge it, or saved by a run that stopped), so
// that Count counts each unit once.
type Counter struct {
	counter *enumerate.ConstrainedCounter
	counted map[int]int64 // units counted already, by index
	saved   map[int]bool  // of them, those saved already (Resume)
	timed   int           // of them, counted and timed by Probe
	probing time.Duration // Probe's time on them, but for listing blocks of rows
	listing time.Duration // Probe's time listing the blocks of rows its units need, lists times
	lists   int
}

// NewCounter prepares the count of the solutions that meet c.
func NewCounter(c Constraint) (*Counter, error) {
	q, err := enumerate.NewConstrainedCounter(c.c)
	if err != nil {
		return nil, err
	}
	return &Counter{counter: q, counted: map[int]int64{}, saved: map[int]bool{}}, nil
}

// Units is how many units the count is cut into.
func (k *Counter) Units() int { return len(k.counter.Units()) }

// Key is the key the count's units are saved under: the way it counts and
// the filter as typed. It is not the Question's: the images of a filter
// share their answer, but each is cut into units of its own.
func (k *Counter) Key() []byte { return k.counter.UnitsKey() }

// Question is the key the count's answer is kept under (Question.Key).
func (k *Counter) Question() []byte { return k.counter.Question() }

// Method names the way the count goes, for the answer kept.
func (k *Counter) Method() string { return k.counter.Method() }

// Halves reports whether the halves counter counts (the board cut where
// the filter makes the work least, or in the middle), rather than the
// row-by-row search.
func (k *Counter) Halves() bool { return k.counter.Halves() }

// Cut reports whether the board is cut where the filter makes the work
// least, and below which row.
func (k *Counter) Cut() (row int, ok bool) { return k.counter.Cut() }

// Transposed reports whether the cut goes between columns: the filter's
// transpose, which counts alike, cuts cheaper.
func (k *Counter) Transposed() bool { return k.counter.Transposed() }

// Resume gives the count the units an earlier run that stopped saved (by
// index), which it neither counts nor saves again.
func (k *Counter) Resume(saved map[int]int64) {
	for u, n := range saved {
		if u >= 0 && u < k.Units() {
			k.counted[u] = n
			k.saved[u] = true
		}
	}
}

// Count counts the units not counted yet on up to workers goroutines,
// handing each to save (if not nil; with those counted before and not
// saved, first) and telling progress the units done of all after each,
// and gives the solutions of every unit.
func (k *Counter) Count(ctx context.Context, workers int, save func(unit int, solutions int64), progress func(done, total int)) (int64, error) {
	units := k.Units()
	var total int64
	var todo []int
	for i := range units {
		n, ok := k.counted[i]
		switch {
		case !ok:
			todo = append(todo, i)
			continue
		case save != nil && !k.saved[i]:
			save(i, n)
		}
		total += n
	}
	done := units - len(todo)
	err := k.counter.Count(ctx, todo, workers, func(i int, n int64) error {
		if save != nil {
			save(i, n)
		}
		total += n
		if done++; progress != nil {
			progress(done, units)
		}
		return nil
	})
	return total, err
}

// Probe counts units on one goroutine, spread over all of them (the middle
// one, then the quarters, ...), skipping those counted already, until
// budget is spent, and times them for TimeLeft; Count does not count them
// again.
func (k *Counter) Probe(ctx context.Context, budget time.Duration) error {
	units := k.Units()
	start := time.Now()
	var spent time.Duration
	listing, lists := k.counter.Listing()
	for step := units; units > 0 && time.Since(start) < budget; step /= 2 {
		for i := step / 2; i < units && time.Since(start) < budget; i += step {
			if _, ok := k.counted[i]; ok {
				continue
			}
			began := time.Now()
			err := k.counter.Count(ctx, []int{i}, 1, func(_ int, n int64) error {
				k.counted[i] = n
				return nil
			})
			if err != nil {
				return err
			}
			spent += time.Since(began)
			k.timed++
		}
		if step <= 1 {
			break
		}
	}
	// A unit counted alone lists the blocks of rows it needs, which Count
	// lists once for all the units of a middle column.
	nowListing, nowLists := k.counter.Listing()
	k.probing += spent - (nowListing - listing)
	k.listing += nowListing - listing
	k.lists += nowLists - lists
	return nil
}

// Probed is the time Probe spent counting units, but for listing blocks
// of rows: part of the count's time.
func (k *Counter) Probed() time.Duration { return k.probing }

// TimeLeft is how long the count should still take on workers goroutines,
// from the units Probe timed: those not counted yet, at the time the timed
// ones took each, and the listing of the blocks of rows they need (0:
// none timed).
func (k *Counter) TimeLeft(workers int) time.Duration {
	if k.timed == 0 {
		return 0
	}
	units := k.counter.Units()
	left := len(units) - len(k.counted)
	per := k.probing / time.Duration(k.timed)
	took := per * time.Duration(left)
	if k.lists > 0 {
		// Each middle column with units left lists its blocks once.
		mids := map[int]bool{}
		for i, u := range units {
			if _, ok := k.counted[i]; !ok {
				mids[u.Mid] = true
			}
		}
		took += k.listing / time.Duration(k.lists) * time.Duration(len(mids))
	}
	return took / time.Duration(max(workers, 1))
}

// A Sample is how long a count of the halves counter should take, judged
// by listing its blocks of rows and timing a few of its units.
type Sample struct {
	Listing time.Duration // listing the blocks of rows
	Took    time.Duration // counting the units timed; when Short, the unit not finished, so far
	Timed   int           // units timed (and kept for Count)
	Short   bool          // a unit was not finished in the longest time given: Took is a lower bound of one unit's
	Expect  time.Duration // how long the whole count should take
}

// Sample lists the blocks of rows the halves counter needs, kept for the
// count from then on, and times units on one goroutine, spread over all of
// them, until budget is spent; a unit still counting after longest is
// stopped. Expect is for workers goroutines. Count does not count the
// units timed again.
func (k *Counter) Sample(ctx context.Context, budget, longest time.Duration, workers int) (Sample, error) {
	listing, took, counted, short, err := k.counter.Sample(ctx, budget, longest)
	if err != nil {
		return Sample{}, err
	}
	for u, n := range counted {
		k.counted[u] = n
	}
	units := k.Units()
	left := units - len(counted)
	per := took / time.Duration(max(1, len(counted)))
	used := time.Duration(max(1, min(workers, left)))
	s := Sample{Listing: listing, Took: took, Timed: len(counted), Short: short, Expect: listing + took + per*time.Duration(left)/used}
	if short {
		// No unit finished: took is a lower bound of one unit's time.
		s.Expect = listing + took*time.Duration(units)/used
	}
	return s, nil
}

// SearchTime is Knuth's estimate of the nodes the row-by-row search
// visits, and how long it should take on workers goroutines at the
// search's speed measured now (its units are the columns of one row: no
// more goroutines than those).
func (k *Counter) SearchTime(workers int) (nodes float64, took time.Duration) {
	nodes = k.counter.SearchNodes(searchProbes(k.Units()), 1)
	return nodes, searchTime(nodes, enumerate.SearchRate(), workers, k.Units())
}
