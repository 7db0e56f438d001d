package enumerate

import (
	"context"
	"fmt"
	"math/bits"
	"runtime"
	"slices"

	"golang.org/x/sync/errgroup"

	"solcat/canon"
)

// FirstRows selects the solutions whose first-row queen stands in columns
// From to To-1 (0-based): a contiguous range of solution IDs.
type FirstRows struct{ From, To int }

// QueensCatalogPart is QueensCatalog for the solutions of some first-row
// columns only, as a shard of a split build writes them. onClassesEnd (if
// not nil) is called as soon as onClass has seen the last class, before
// the members are expanded; onFirstID (if not nil) learns the ID of the
// first solution in range before onSolution sees it. Only the members in
// range are kept in memory.
func QueensCatalogPart(ctx context.Context, n int, opt Options, part FirstRows,
	onClass func(id int64, canonical []byte, orbit int) error,
	onClassesEnd func() error,
	onFirstID func(id int64) error,
	onSolution func(sol []byte, classID int64, from canon.Symmetry) error) (ClassCounts, error) {

	if n > 20 {
		panic("QueensCatalog: members are ranked in 64 bits, which holds 20! but not 21!")
	}
	// Progress is reported in thousandths: the search (and writing the
	// classes it finds) is the first fifth of the work, writing the
	// solutions the rest.
	progress := func(done, total int) {}
	if opt.Progress != nil {
		progress = opt.Progress
	}
	search := Options{Workers: opt.Workers, Resume: opt.Resume, Progress: func(done, total int) {
		progress(200*done/total, 1000)
	}}
	// One goroutine searches for the classes, then expands them into their
	// members; one per worker sorts the members, a bucket (the solutions that
	// share their first rows) at a time; one writes the classes as they are
	// found, then the buckets in order as they come. At most workers+1 sorted
	// buckets wait in memory.
	type classChunk struct {
		forms, orbits []byte
	}
	type ready struct {
		cells []byte
		keys  []uint64
	}
	type span struct {
		firstID, count int64        // the solutions in part
		skip           int          // the first buckets, written by an earlier run
		skipped        int64        // their solutions
		layout         memberLayout // how members are bucketed and packed
		sorted         []chan ready // bucket k's members, sorted
	}
	found := make(chan classChunk, 64)
	spans := make(chan span, 1)
	workers := max(opt.Workers, 1)
	room := make(chan struct{}, workers+1) // a token per bucket in flight
	var counts ClassCounts
	var searchErr error // the search's, read once found is closed
	g, gctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		var forms []byte // every class's, for the members
		if r := opt.Resume; r != nil {
			forms = make([]byte, 0, len(r.Forms)) // the saved ones at least, without growing a slice of them again and again
		}
		var chunk classChunk
		send := func() error {
			select {
			case found <- chunk:
				chunk = classChunk{}
				return nil
			case <-gctx.Done():
				return gctx.Err()
			}
		}
		var err error
		counts, err = QueensClasses(gctx, n, search, func(form []byte, orbit int) error {
			forms = append(forms, form...)
			chunk.forms = append(chunk.forms, form...)
			chunk.orbits = append(chunk.orbits, byte(orbit))
			if len(chunk.orbits) < 4096 {
				return nil
			}
			return send()
		})
		if err == nil && len(chunk.orbits) > 0 {
			err = send()
		}
		searchErr = err
		close(found)
		if err != nil {
			return err
		}
		layout := newMemberLayout(n, len(forms)/n)
		// The buckets before that of the last solution an earlier run
		// wrote are written whole: their members are only counted.
		keep := part.From * layout.perColumn
		if r := opt.Resume; r != nil && len(r.Last) == n {
			keep = max(keep, int(permutationRank(r.Last)/layout.perBucket))
		}
		buckets, counts, sizes, err := expandMembers(gctx, layout, forms, opt.Workers, part, keep)
		if err != nil {
			return err
		}
		in := span{firstID: 1, layout: layout, sorted: make([]chan ready, layout.buckets)}
		for k := range in.sorted {
			in.sorted[k] = make(chan ready, 1)
		}
		for col := range part.To {
			if col < part.From {
				in.firstID += sizes[col]
			} else {
				in.count += sizes[col]
			}
		}
		if r := opt.Resume; r != nil {
			for k := part.From * layout.perColumn; k < part.To*layout.perColumn; k++ {
				if in.skipped+counts[k] > r.Solutions {
					break
				}
				in.skip++
				in.skipped += counts[k]
				buckets[k] = nil
			}
		}
		if part.From*layout.perColumn+in.skip < keep {
			return fmt.Errorf("queens:%d: %d solutions were saved, but the last of them lies further on (this is a bug, please report it)", n, opt.Resume.Solutions)
		}
		spans <- in
		next := make(chan int)
		for range workers {
			g.Go(func() error {
				p := canon.Puzzle{Kind: canon.Queens, N: n}
				for k := range next {
					keys := buckets[k]
					buckets[k] = nil // the bucket lives on in what is sent below, then goes
					slices.Sort(keys)
					cells := make([]byte, len(keys)*n)
					for i, key := range keys {
						class, from := layout.member(key)
						p.Apply(from, cells[i*n:(i+1)*n], forms[(class-1)*n:class*n])
					}
					in.sorted[k] <- ready{cells, keys}
				}
				return nil
			})
		}
		defer close(next)
		for k := part.From*layout.perColumn + in.skip; k < part.To*layout.perColumn; k++ {
			select {
			case room <- struct{}{}:
			case <-gctx.Done():
				return gctx.Err()
			}
			next <- k
		}
		return nil
	})
	g.Go(func() error {
		var id int64
		for chunk := range found {
			for i, orbit := range chunk.orbits {
				id++
				if err := onClass(id, chunk.forms[i*n:(i+1)*n], int(orbit)); err != nil {
					return err
				}
			}
		}
		if searchErr != nil {
			return searchErr // set before found was closed
		}
		if onClassesEnd != nil {
			if err := onClassesEnd(); err != nil {
				return err
			}
		}
		var in span
		select {
		case in = <-spans:
		case <-gctx.Done():
			return gctx.Err()
		}
		if onFirstID != nil {
			if err := onFirstID(in.firstID); err != nil {
				return err
			}
		}
		written := in.skipped
		if in.skipped > 0 {
			if err := opt.Resume.Skip(in.skipped); err != nil {
				return err
			}
		}
		total := max(in.count, 1)
		for k := part.From*in.layout.perColumn + in.skip; k < part.To*in.layout.perColumn; k++ {
			var r ready
			select {
			case r = <-in.sorted[k]:
			case <-gctx.Done():
				return gctx.Err()
			}
			<-room
			for i, key := range r.keys {
				class, from := in.layout.member(key)
				if err := onSolution(r.cells[i*n:(i+1)*n], int64(class), from); err != nil {
					return err
				}
				if written++; written%65536 == 0 {
					progress(200+int(800*written/total), 1000)
				}
			}
		}
		progress(1000, 1000)
		return nil
	})
	err := g.Wait() // before counts is read: a goroutine of g sets it
	return counts, err
}

// memberLayout packs a member (a solution before it is sorted) into one
// uint64 key, so that sorting a bucket's keys sorts its members: its rank
// among the solutions of its bucket (the lexicographic rank of its
// permutation modulo (n-depth)!, the rank among those sharing its first
// depth rows), then its class ID, then the symmetry from the class's form.
// The buckets in order of their first rows, each sorted, are all solutions
// in lexicographic order. depth is the least that leaves room in 64 bits
// for the class IDs: 1 up to queens:15, 2 for queens:16, 3 for queens:17.
// A key takes half the memory of the three fields side by side, and
// sorting plain integers is about twice as fast as sorting structs.
type memberLayout struct {
	n, depth  int
	perBucket uint64 // (n-depth)!: the ranks within one bucket
	buckets   int    // n!/(n-depth)!
	perColumn int    // buckets per first-row column
	classBits uint
}

func newMemberLayout(n, classes int) memberLayout {
	l := memberLayout{n: n, classBits: uint(bits.Len(uint(classes)))}
	for l.depth = 1; ; l.depth++ {
		l.perBucket = factorial(n - l.depth)
		if uint(bits.Len64(l.perBucket-1))+l.classBits+3 <= 64 || l.depth == n {
			break
		}
	}
	l.buckets = int(factorial(n) / l.perBucket)
	l.perColumn = l.buckets / n
	return l
}

func factorial(k int) uint64 {
	f := uint64(1)
	for i := 2; i <= k; i++ {
		f *= uint64(i)
	}
	return f
}

// key places a member: its bucket and its key within the bucket.
func (l memberLayout) key(rank uint64, class int, from canon.Symmetry) (bucket int, key uint64) {
	return int(rank / l.perBucket), (rank%l.perBucket)<<(l.classBits+3) | uint64(class)<<3 | uint64(from)
}

// member reads a key's class ID and symmetry back.
func (l memberLayout) member(key uint64) (class int, from canon.Symmetry) {
	return int(key >> 3 & (1<<l.classBits - 1)), canon.Symmetry(key & 7)
}

// expandMembers turns every class into its distinct images, bucketed by
// their first rows (the most significant part of the rank), so the buckets
// taken in order and sorted give all solutions in lexicographic order. Only
// the buckets in part from bucket keep on are kept; counts counts the
// members of every bucket in part, sizes the members by first-row column.
func expandMembers(ctx context.Context, l memberLayout, forms []byte, workers int, part FirstRows, keep int) (buckets [][]uint64, counts, sizes []int64, err error) {
	if workers < 1 {
		workers = runtime.NumCPU()
	}
	n := l.n
	classes := len(forms) / n
	parts := make([][][]uint64, workers)
	bucketCounts, columnCounts := make([][]int64, workers), make([][]int64, workers)
	g, gctx := errgroup.WithContext(ctx)
	for w := 0; w < workers; w++ {
		g.Go(func() error {
			images := canon.NewImages(canon.Puzzle{Kind: canon.Queens, N: n})
			buckets := make([][]uint64, l.buckets)
			counts, sizes := make([]int64, l.buckets), make([]int64, n)
			for c := w; c < classes; c += workers {
				if c%65536 == 0 && gctx.Err() != nil {
					return gctx.Err()
				}
				images.Distinct(forms[c*n:(c+1)*n], func(s canon.Symmetry, img []byte) error {
					sizes[img[0]]++
					if int(img[0]) >= part.From && int(img[0]) < part.To {
						b, key := l.key(permutationRank(img), c+1, s)
						if counts[b]++; b >= keep {
							buckets[b] = append(buckets[b], key)
						}
					}
					return nil
				})
			}
			parts[w], bucketCounts[w], columnCounts[w] = buckets, counts, sizes
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, nil, nil, err
	}
	counts, sizes = make([]int64, l.buckets), make([]int64, n)
	for w := range workers {
		for k, c := range bucketCounts[w] {
			counts[k] += c
		}
		for k, c := range columnCounts[w] {
			sizes[k] += c
		}
	}
	buckets = make([][]uint64, l.buckets)
	for k := range buckets {
		size := 0
		for _, part := range parts {
			size += len(part[k])
		}
		if size == 0 {
			continue
		}
		buckets[k] = make([]uint64, 0, size)
		for _, part := range parts {
			buckets[k] = append(buckets[k], part[k]...)
			part[k] = nil // let the collector take it before the next bucket grows
		}
	}
	return buckets, counts, sizes, nil
}

// permutationRank is the rank of a permutation of 0..n-1 in lexicographic
// order (its Lehmer code read as a factorial-base number).
func permutationRank(perm []byte) uint64 {
	var used uint32
	var rank uint64
	n := len(perm)
	for i, v := range perm {
		smaller := bits.OnesCount32(^used & (1<<v - 1))
		rank = rank*uint64(n-i) + uint64(smaller)
		used |= 1 << v
	}
	return rank
}
