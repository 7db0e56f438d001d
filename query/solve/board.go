package solve

import (
	"context"
	"sync"
	"time"

	"solcat/canon"
	"solcat/enumerate"
)

// Orbits counts classes by orbit size: Orbits[k] classes of k members (k
// = 1, 2, 4, 8).
type Orbits [9]int64

// Classes is the number of classes.
func (o Orbits) Classes() int64 { return o[1] + o[2] + o[4] + o[8] }

// Solutions is the number of solutions: each class counts its members.
func (o Orbits) Solutions() int64 { return o[1] + 2*o[2] + 4*o[4] + 8*o[8] }

// A Board is a count of the toroidal or superqueen solutions of queens
// that meet a constraint (a search of its own, far smaller than all of the
// puzzle's), in units that are counted, saved and resumed one by one.
// With no cell fixed it counts the solutions turns fix too, which give the
// classes by orbit size (Burnside's lemma).
type Board struct {
	prop    canon.Property
	n       int
	counter *enumerate.BoardCounter
	saved   map[int]int64       // units saved by a run that stopped, by index
	only    func(unit int) bool // a shard's units (nil: every unit)
}

// NewBoard prepares the count of the solutions with prop (canon.Toroidal
// or canon.Superqueen) that meet c.
func NewBoard(prop canon.Property, c Constraint) (*Board, error) {
	q, err := enumerate.NewBoardCounter(prop, c.c)
	if err != nil {
		return nil, err
	}
	return &Board{prop: prop, n: c.N(), counter: q}, nil
}

// Units is how many units the count is saved and resumed by.
func (b *Board) Units() int { return len(b.counter.Units()) }

// Method names the way the count goes, for the answer kept.
func (b *Board) Method() string { return b.counter.Method() }

// Scheme is the counter's units' scheme (enumerate.BoardCounter.Scheme),
// so that units saved under another are not mixed in.
func (b *Board) Scheme() byte { return b.counter.Scheme() }

// Classes reports whether the count gives the classes by orbit size: with
// no cell fixed.
func (b *Board) Classes() bool { return b.counter.Fixed() }

// Resume gives the count the units an earlier run that stopped saved (by
// index), which it does not count again.
func (b *Board) Resume(saved map[int]int64) { b.saved = saved }

// Shard makes the count one shard of a split: only the units has
// reports, and not the solutions the turns fix. Its Count gives the
// solutions of those units alone, and no classes.
func (b *Board) Shard(has func(unit int) bool) { b.only = has }

// Count counts the units not saved on up to workers goroutines (0: one per
// core), handing each to save (if not nil) and telling progress the units
// done of all after each: the solutions, and with no cell fixed the
// classes by orbit size too.
func (b *Board) Count(ctx context.Context, workers int, save func(unit int, solutions int64), progress func(done, total int)) (int64, Orbits, error) {
	q := b.counter
	units := len(q.Units())
	fixed := q.Fixed() && b.only == nil
	var total enumerate.ClassCounts
	var todo []int
	if fixed {
		todo = append(todo, units) // first: one worker counts it while the others start on the rest
	}
	mine := 0 // the units counted, saved or not
	for i := range units {
		if b.only != nil && !b.only(i) {
			continue
		}
		mine++
		if n, ok := b.saved[i]; ok {
			total.Joined += n
		} else {
			todo = append(todo, i)
		}
	}
	done := mine - len(todo)
	if fixed {
		done++
	}
	err := q.Count(ctx, todo, workers, func(i int, c enumerate.ClassCounts) error {
		total.Add(c)
		if i < units {
			done++
			if save != nil {
				save(i, c.Joined)
			}
			if progress != nil {
				progress(done, mine)
			}
		}
		return nil
	})
	switch {
	case err != nil:
		return 0, Orbits{}, err
	case !fixed:
		return total.Joined, Orbits{}, nil
	case b.n == 1:
		total = enumerate.ClassCounts{Orbits: [9]int64{1: total.Joined}} // fixed by every symmetry
	default:
		if err := total.ClassifyJoined(); err != nil {
			return 0, Orbits{}, err
		}
	}
	return total.Solutions(), Orbits(total.Orbits), nil
}

// SearchTime is Knuth's estimate of the nodes the count visits, and how
// long it should take on workers goroutines at the counter's speed
// (measured once a process).
func (b *Board) SearchTime(workers int) (nodes float64, took time.Duration) {
	nodes = b.counter.SearchNodes(searchProbes(b.Units()), 1)
	return nodes, searchTime(nodes, boardRate(b.prop), workers, b.Units())
}

// boardRate is the board counter's speed on one core, nodes a second,
// measured once a process.
func boardRate(prop canon.Property) float64 {
	boardRates.Lock()
	defer boardRates.Unlock()
	if boardRates.m[prop] == 0 {
		boardRates.m[prop] = enumerate.BoardSearchRate(prop)
	}
	return boardRates.m[prop]
}

var boardRates = struct {
	sync.Mutex
	m map[canon.Property]float64
}{m: map[canon.Property]float64{}}
