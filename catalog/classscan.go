package catalog

import (
	"context"
	"fmt"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"solcat/catalog/pagefile"
)

// ClassBlockScan asks a scan of a classes-only puzzle's packed forms for
// the blocks that hold classes Lo to Hi (the caller picks the classes in
// range).
type ClassBlockScan struct {
	Lo, Hi int64
	// Blocks, if not nil, limits the scan to these blocks (sorted).
	Blocks []int64
	// Workers is how many goroutines read and hand over blocks at once;
	// with 1 (or 0) the blocks come in ID order.
	Workers int
	// Select, if set, is asked of each group of blocks with its synopsis
	// (ClassGroup.MayHold) before they are read: 0 skips them, and any
	// other value is handed to fn with each of them (a set of symmetries
	// that may match, say). A puzzle stored without a class index has no
	// groups: every block is read, with the tag ^0.
	Select func(w int, g *ClassGroup) uint32
}

// ScanClassBlocks calls fn, in class ID order within each goroutine w, for
// each block of packed canonical forms that holds classes Lo to Hi and
// that Select keeps: first is the ID of its first class, forms its forms
// (PackedFormSize bytes each), valid during the call. Every block read is
// checked against its checksum in the class index; a damaged or missing
// block stops the scan with an error naming the puzzle.
func (s *Content) ScanClassBlocks(ctx context.Context, q ClassBlockScan, fn func(w int, first int64, forms []byte, tag uint32) error) (ScanReport, error) {
	var report ScanReport
	lo, hi := max(q.Lo, 1), min(q.Hi, s.Record.Classes)
	if lo > hi {
		return report, nil
	}
	form := s.form
	lastBlock := form.blockOf(s.Record.Classes)
	from, to := form.blockOf(lo), form.blockOf(hi)
	data := &tableRef{name: s.classes, columns: []string{"forms"}}
	index := &tableRef{name: s.classIndex, columns: []string{"synopsis", "checks", "checksum"}}
	r, err := s.c.openReader(ctx, s.throughSQL, data, index)
	if err != nil {
		return report, err
	}
	defer r.close()
	drive, a, b := data, from-1, to
	if s.classIndex != "" && !s.unchecked {
		drive, a, b = index, (from-1)/classGroupBlocks, (to-1)/classGroupBlocks+1
	}
	workers := max(q.Workers, 1)
	pieces := scanChunks
	if workers > 1 {
		pieces *= workers
	}
	chunks := r.chunks(drive, a, b, pieces, drive == index)
	ends := make([][2]int64, len(chunks))
	var next, read, skipped atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	for w := range workers {
		g.Go(func() error {
			sc := &classChunkScan{s: s, r: r, q: &q, w: w, from: from, to: to, last: lastBlock, buf: r.pageBuffer(), data: data, index: index, fn: fn}
			for {
				i := int(next.Add(1) - 1)
				if i >= len(chunks) {
					break
				}
				if err := sc.chunk(gctx, chunks[i][0], chunks[i][1], &ends[i]); err != nil {
					return err
				}
			}
			read.Add(sc.read)
			skipped.Add(sc.skipped)
			return nil
		})
	}
	err = g.Wait()
	if err == nil && (s.classIndex != "" && !s.unchecked || q.Blocks == nil) {
		err = s.checkBlockRun(ends, from, to)
	}
	report = ScanReport{Read: read.Load(), Skipped: skipped.Load()}
	return report, r.finish(err)
}

// checkBlockRun checks that the chunks' blocks (or groups) follow one
// another and cover the blocks from to to.
func (s *Content) checkBlockRun(ends [][2]int64, from, to int64) error {
	var first, end int64
	for _, e := range ends {
		if e == [2]int64{} {
			continue
		}
		switch {
		case end == 0:
			first = e[0]
		case e[0] != end:
			return s.damaged(fmt.Sprintf("class blocks %d to %d are missing or repeated", min(end, e[0]), max(end, e[0])-1))
		}
		end = e[1]
	}
	if end == 0 || first > from || end <= to {
		return s.damaged(fmt.Sprintf("its class blocks %d to %d are not all there", from, to))
	}
	return nil
}

// classChunkScan is one goroutine's scan of chunks of a class block scan.
type classChunkScan struct {
	s              *Content
	r              *fileReader
	q              *ClassBlockScan
	w              int
	from, to, last int64 // the blocks asked for, and the puzzle's last
	buf            *pageBuffer
	data, index    *tableRef
	fn             func(w int, first int64, forms []byte, tag uint32) error

	read, skipped int64
	cols          []pagefile.Value // a class index row: grp, synopsis, checks, checksum
	formCols      []pagefile.Value // a class block row: block, forms
	picked        []int64          // blocks to read
	tags          []uint32         // their tags
	checks        []uint32         // their checksums
}

// chunk reads the blocks of the driving table's rowids (a, b]: groups of
// the class index, or (a puzzle stored without one) blocks. ends gets the
// first and the end (one past the last) of the blocks it met.
func (sc *classChunkScan) chunk(ctx context.Context, a, b int64, ends *[2]int64) error {
	s := sc.s
	sc.picked, sc.tags, sc.checks = sc.picked[:0], sc.tags[:0], sc.checks[:0]
	sc.formCols = growValues(sc.formCols, 2)
	if s.classIndex == "" || s.unchecked {
		return sc.r.rows(ctx, sc.buf, sc.data, a, b, sc.only(a, b), sc.formCols, func(block int64) error {
			if ends[0] == 0 {
				ends[0] = block
			} else if block != ends[1] && sc.q.Blocks == nil {
				return s.damaged(fmt.Sprintf("class blocks %d to %d are missing or repeated", min(ends[1], block), max(ends[1], block)-1))
			}
			ends[1] = block + 1
			if block < sc.from || block > sc.to {
				return nil
			}
			if err := s.checkFormBlock(block, sc.formCols[1].Bytes); err != nil {
				return err
			}
			sc.read++
			return sc.fn(sc.w, (block-1)*int64(s.form.perBlock)+1, sc.formCols[1].Bytes, ^uint32(0))
		})
	}
	synBytes := (s.form.cells*classSynopsisBits(s.p) + 7) / 8
	sc.cols = growValues(sc.cols, 4)
	group := &ClassGroup{bits: classSynopsisBits(s.p)}
	per := int64(s.form.perBlock)
	err := sc.r.rows(ctx, sc.buf, sc.index, a, b, nil, sc.cols, func(g int64) error {
		syn, checks := sc.cols[1].Bytes, sc.cols[2].Bytes
		sum, ok := intColumn(sc.cols[3])
		if !ok {
			return s.damaged(fmt.Sprintf("the class index row of group %d has no checksum", g))
		}
		if err := checkClassGroup(g, syn, checks, sum, synBytes, sc.last); err != nil {
			return s.damaged(err.Error())
		}
		firstBlock := (g-1)*classGroupBlocks + 1
		lastBlock := firstBlock + int64(len(checks)/4) - 1
		if ends[0] == 0 {
			ends[0] = firstBlock
		} else if firstBlock != ends[1] {
			return s.damaged(fmt.Sprintf("class blocks %d to %d are missing from its index", min(ends[1], firstBlock), max(ends[1], firstBlock)-1))
		}
		ends[1] = lastBlock + 1
		lo, hi := max(firstBlock, sc.from), min(lastBlock, sc.to)
		if lo > hi {
			return nil
		}
		tag := ^uint32(0)
		if sc.q.Select != nil {
			group.First, group.Last, group.syn = (lo-1)*per+1, hi*per, syn
			if tag = sc.q.Select(sc.w, group); tag == 0 {
				sc.skipped += hi - lo + 1
				return nil
			}
		}
		for k := lo; k <= hi; k++ {
			if sc.q.Blocks != nil && !sc.wants(k) {
				continue
			}
			sc.picked = append(sc.picked, k)
			sc.tags = append(sc.tags, tag)
			sc.checks = append(sc.checks, groupCheckAt(checks, int(k-firstBlock)))
		}
		return nil
	})
	if err != nil || len(sc.picked) == 0 {
		return err
	}
	i := 0
	err = sc.r.rows(ctx, sc.buf, sc.data, sc.picked[0]-1, sc.picked[len(sc.picked)-1], sc.picked, sc.formCols, func(block int64) error {
		if block != sc.picked[i] {
			return s.damaged(fmt.Sprintf("class block %d is missing", sc.picked[i]))
		}
		forms := sc.formCols[1].Bytes
		if err := s.checkFormBlock(block, forms); err != nil {
			return err
		}
		if want := min(per, s.Record.Classes-(block-1)*per); int64(len(forms)) != want*int64(s.form.size) {
			return s.damaged(fmt.Sprintf("class block %d holds %d bytes, %d expected", block, len(forms), want*int64(s.form.size)))
		}
		if !s.unchecked && blockCheck(block, forms) != sc.checks[i] {
			return s.damaged(fmt.Sprintf("class block %d does not match its checksum", block))
		}
		tag := sc.tags[i]
		i++
		sc.read++
		return sc.fn(sc.w, (block-1)*per+1, forms, tag)
	})
	if err == nil && i < len(sc.picked) {
		err = s.damaged(fmt.Sprintf("class block %d is missing", sc.picked[i]))
	}
	return err
}

// only is the blocks of (a, b] the scan asks for by number, or nil for
// all.
func (sc *classChunkScan) only(a, b int64) []int64 {
	if sc.q.Blocks == nil {
		return nil
	}
	out := []int64{}
	for _, k := range sc.q.Blocks {
		if k > a && k <= b {
			out = append(out, k)
		}
	}
	return out
}

// wants reports whether block k is among those the scan asks for.
func (sc *classChunkScan) wants(k int64) bool {
	for _, b := range sc.q.Blocks {
		if b == k {
			return true
		}
		if b > k {
			break
		}
	}
	return false
}

// BlocksOf is how many class blocks a group handed to Select holds.
func (s *Content) BlocksOf(g *ClassGroup) int64 {
	per := int64(s.form.perBlock)
	return (g.Last-1)/per - (g.First-1)/per + 1
}

// ClassIndexed reports whether a classes-only puzzle has a class index:
// false for one stored before it.
func (s *Content) ClassIndexed() bool { return s.classIndex != "" }
