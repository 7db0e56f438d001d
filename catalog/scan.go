package catalog

import (
	"context"
	"fmt"
	"sync/atomic"

	"golang.org/x/sync/errgroup"

	"solcat/catalog/pagefile"
)

// BlockScan asks a scan of a puzzle's solution blocks for the blocks that
// hold the solutions Lo to Hi (the caller picks the solutions in range).
type BlockScan struct {
	Lo, Hi  int64
	Cells   []int // the cells to read; nil reads every cell and the class entries
	Classes bool  // read the class entries too
	// Workers is how many goroutines read and hand over blocks at once;
	// with 1 (or 0) the blocks come in ID order.
	Workers int
	// Select, if set, is asked of each block before its cells are read,
	// with its First, N and synopsis (MayHold, Only): false skips the block
	// (a caller may take what it needs from the synopsis alone). Blocks of
	// an older layout, whose synopsis lies in the block, are read first.
	Select func(w int, b *Block) bool
}

// ScanReport is what a scan read and skipped.
type ScanReport struct{ Read, Skipped int64 }

// scanChunks is how many pieces a parallel scan cuts its range into, at
// least: goroutines take the next piece as they finish one, so a range
// whose matches bunch together keeps every core busy.
const scanChunks = 64

// ScanBlocks calls fn for each block that holds solutions Lo to Hi and that
// Select keeps, in ID order within each goroutine w (0 <= w < Workers).
// Blocks of layout 3 are chosen by their index entries before a byte of
// them is read, and every run of bytes read is checked against its
// checksum; a damaged block, a gap in the blocks, or an index entry that
// does not match stops the scan with an error naming the puzzle.
func (s *Content) ScanBlocks(ctx context.Context, q BlockScan, fn func(w int, b *Block) error) (ScanReport, error) {
	lo, hi := max(q.Lo, 1), min(q.Hi, s.Record.Solutions)
	var report ScanReport
	if lo > hi {
		return report, nil
	}
	workers := max(q.Workers, 1)
	b := s.blocks
	data := &tableRef{name: b.Table, columns: []string{"cells", "class_syms"}}
	if b.Layout < 3 {
		data.columns = append(data.columns, b.synopsisColumn())
	}
	index := &tableRef{name: b.Index, columns: []string{"entries", "checksum"}}
	r, err := s.c.openReader(ctx, s.throughSQL, data, index)
	if err != nil {
		return report, err
	}
	defer r.close()
	// The driving table's rowid ranges, one piece a chunk: the index's
	// groups, or (older layouts) the blocks themselves.
	if b.Layout == 1 {
		data.root = 0 // row-major blocks are read through SQL
	}
	drive := data
	span := int64(maxBlockSolutions)
	if b.Layout == 3 && !s.unchecked {
		drive, span = index, int64(b.indexPerRow()*maxBlockSolutions)
	}
	pieces := workers * scanChunks
	if workers == 1 {
		pieces = scanChunks
	}
	chunks := r.chunks(drive, lo-span, hi, pieces, drive == index)
	ends := make([][2]int64, len(chunks)) // each chunk's first and end ID, for the check that they join
	var next atomic.Int64
	var read, skipped atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	for w := range workers {
		g.Go(func() error {
			sc := &chunkScan{s: s, r: r, q: &q, w: w, lo: lo, hi: hi, buf: r.pageBuffer(), data: data, index: index, fn: fn}
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
	if err == nil {
		err = s.checkJoins(ends, lo, hi)
	}
	report = ScanReport{Read: read.Load(), Skipped: skipped.Load()}
	return report, r.finish(err)
}

// checkJoins checks that the chunks' blocks follow one another with no gap
// or overlap and cover lo to hi.
func (s *Content) checkJoins(ends [][2]int64, lo, hi int64) error {
	var first, end int64 = 0, 0
	for _, e := range ends {
		if e == [2]int64{} {
			continue // a chunk with no block
		}
		switch {
		case end == 0:
			first = e[0]
		case e[0] != end:
			return s.damaged(fmt.Sprintf("its blocks do not follow one another: solutions %d to %d are missing or repeated", min(end, e[0]), max(end, e[0])-1))
		}
		end = e[1]
	}
	if end == 0 || first > lo || end <= hi {
		return s.damaged(fmt.Sprintf("its blocks do not hold every solution from %d to %d", lo, hi))
	}
	return nil
}

// damaged is the error of damage a scan found in a puzzle's stored
// content: a checksum that does not match, a block missing or repeated.
func (s *Content) damaged(what string) error {
	return &DamagedError{Puzzle: s.Record.Name, Path: s.c.path, Problem: what}
}

// chunks cuts the rowids above lo and at most hi of the driving table into
// about pieces ranges (lo, hi]: by its leaf pages, each range holding about
// as many; or by rowids, each holding as many, with even (a table whose
// rowids are spread evenly over its rows, as an index's group numbers and
// first IDs are) or through SQL. An even cut lists no leaf: on a virtual
// machine, where each page of memory first touched costs dear, the list of
// a large table's leaves was a good part of a short count's time.
func (r *fileReader) chunks(t *tableRef, lo, hi int64, pieces int, even bool) [][2]int64 {
	if r.pf != nil && t.root != 0 && !even {
		if leaves, err := r.pf.Leaves(t.root, lo, hi, nil, nil); err == nil && len(leaves) > 0 {
			per := (len(leaves) + pieces - 1) / pieces
			var out [][2]int64
			for i := 0; i < len(leaves); i += per {
				last := leaves[min(i+per, len(leaves))-1]
				out = append(out, [2]int64{max(leaves[i].Lo, lo), min(last.Hi, hi)})
			}
			out[0][0] = lo
			out[len(out)-1][1] = hi
			return out
		}
	}
	step := (hi - lo + int64(pieces) - 1) / int64(pieces)
	var out [][2]int64
	for a := lo; a < hi; a += max(step, 1) {
		out = append(out, [2]int64{a, min(a+max(step, 1), hi)})
	}
	return out
}

// chunkScan is one goroutine's scan of chunks of a block scan.
type chunkScan struct {
	s      *Content
	r      *fileReader
	q      *BlockScan
	w      int
	lo, hi int64
	buf    *pageBuffer
	data   *tableRef
	index  *tableRef
	fn     func(w int, b *Block) error

	read, skipped int64
	cols          []pagefile.Value // an index row (rowid, entries, checksum), a block row (rowid, cells, class entries[, synopsis])
	picked        []pickedBlock
	groups        []byte
	ids           []int64
	blk           Block
}

// pickedBlock is a block the index chose to read: its first solution and
// where its entry lies in the chunk's index bytes.
type pickedBlock struct {
	first int64
	at    int
}

// chunk scans the blocks of the driving table's rowids (a, b], recording
// the first and end ID of the blocks it met in ends.
func (sc *chunkScan) chunk(ctx context.Context, a, b int64, ends *[2]int64) error {
	if sc.s.blocks.Layout == 3 && !sc.s.unchecked {
		return sc.indexedChunk(ctx, a, b, ends)
	}
	return sc.plainChunk(ctx, a, b, ends)
}

// indexedChunk reads the index rows (a, b], picks the blocks that may
// match, then reads those blocks' pages only.
func (sc *chunkScan) indexedChunk(ctx context.Context, a, b int64, ends *[2]int64) error {
	s, t := sc.s, sc.s.blocks
	synBytes := t.synopsisBytes()
	entryBytes := t.indexEntryBytes()
	sc.picked, sc.ids = sc.picked[:0], sc.ids[:0]
	sc.cols = growValues(sc.cols, 3)
	sc.groups = sc.groups[:0] // the index rows' entries, kept while the chunk reads its blocks
	var end int64
	err := sc.r.rows(ctx, sc.buf, sc.index, a, b, nil, sc.cols, func(first int64) error {
		entries := sc.cols[1].Bytes
		sum, ok := intColumn(sc.cols[2])
		if !ok {
			return s.damaged(fmt.Sprintf("the block index row of solution %d has no checksum", first))
		}
		groupEnd, err := t.checkGroup(first, entries, sum)
		if err != nil {
			return s.damaged(err.Error())
		}
		if end != 0 && first != end {
			return s.damaged(fmt.Sprintf("its blocks do not follow one another: solutions %d to %d are missing or repeated", min(end, first), max(end, first)-1))
		}
		if ends[0] == 0 {
			ends[0] = first
		}
		end = groupEnd
		id := first
		for at := 0; at < len(entries); at += entryBytes {
			e := indexEntry(entries[at : at+entryBytes])
			n := e.solutions()
			blockFirst := id
			id += int64(n)
			if id <= sc.lo || blockFirst > sc.hi {
				continue
			}
			sc.blk = Block{First: blockFirst, N: n, syn: e.synopsis(synBytes), t: &sc.s.blocks}
			if sc.q.Select != nil && !sc.q.Select(sc.w, &sc.blk) {
				sc.skipped++
				continue
			}
			sc.picked = append(sc.picked, pickedBlock{first: blockFirst, at: len(sc.groups)})
			sc.groups = append(sc.groups, e...)
		}
		return nil
	})
	if err != nil {
		return err
	}
	ends[1] = end
	if len(sc.picked) == 0 {
		return nil
	}
	for _, p := range sc.picked {
		sc.ids = append(sc.ids, p.first)
	}
	k := 0
	err = sc.r.rows(ctx, sc.buf, sc.data, sc.picked[0].first-1, sc.picked[len(sc.picked)-1].first, sc.ids, sc.cols, func(first int64) error {
		p := sc.picked[k]
		if first != p.first {
			return s.damaged(fmt.Sprintf("solution block %d is missing", p.first))
		}
		k++
		e := indexEntry(sc.groups[p.at : p.at+entryBytes])
		if err := sc.fill(p.first, e.solutions(), sc.cols[1].Bytes, sc.cols[2].Bytes, e.synopsis(synBytes)); err != nil {
			return err
		}
		// Every run handed over is checked against its checksum first.
		if err := sc.checkRuns(e, synBytes); err != nil {
			return err
		}
		sc.read++
		return sc.fn(sc.w, &sc.blk)
	})
	if err == nil && k < len(sc.picked) {
		err = s.damaged(fmt.Sprintf("solution block %d is missing", sc.picked[k].first))
	}
	return err
}

// checkRuns checks the runs of the block being handed over against the
// checksums of its index entry.
func (sc *chunkScan) checkRuns(e indexEntry, synBytes int) error {
	b := &sc.blk
	t := sc.s.blocks
	for c, col := range b.part {
		if col != nil && columnCheck(b.First, c, col) != e.check(synBytes, c) {
			return sc.s.damaged(fmt.Sprintf("solution block %d does not match its checksum (cell %d)", b.First, c))
		}
	}
	if b.syms != nil && columnCheck(b.First, t.CellBytes, b.syms) != e.check(synBytes, t.CellBytes) {
		return sc.s.damaged(fmt.Sprintf("solution block %d does not match its checksum (class entries)", b.First))
	}
	return nil
}

// fill sets the block handed over from a block row read: n solutions
// (0: as many as the row holds), cells and class entries as stored, the
// synopsis of an older layout's row.
func (sc *chunkScan) fill(first int64, n int, cells, syms, syn []byte) error {
	t := &sc.s.blocks
	if n == 0 {
		n = len(cells) / max(t.CellBytes, 1)
	}
	if n < 1 || n > maxBlockSolutions || len(cells) != n*t.CellBytes || len(syms) != n*t.Digits || t.Layout == 2 && len(syn) != t.synopsisBytes() {
		return sc.s.damaged(fmt.Sprintf("solution block %d is damaged: %d cell bytes, %d class bytes and %d synopsis bytes are not whole solutions of %d cells and %d digits",
			first, len(cells), len(syms), len(syn), t.CellBytes, t.Digits))
	}
	b := &sc.blk
	b.First, b.N, b.t = first, n, t
	b.syn = syn // column blocks: from the row (layout 2) or the index (3)
	if cap(b.part) < t.CellBytes {
		b.part = make([][]byte, t.CellBytes)
	}
	b.part = b.part[:t.CellBytes]
	if t.Layout == 1 {
		b.rowMajor = growBytes(b.rowMajor, len(cells))
		transpose(b.rowMajor, cells, n, t.CellBytes)
		cells = b.rowMajor
	}
	all := sc.q.Cells == nil
	for c := range b.part {
		b.part[c] = nil
		if all {
			b.part[c] = cells[c*n : (c+1)*n]
		}
	}
	for _, c := range sc.q.Cells {
		b.part[c] = cells[c*n : (c+1)*n]
	}
	b.syms = nil
	if all || sc.q.Classes {
		b.syms = syms
	}
	return nil
}

// plainChunk reads the blocks (a, b] of an older layout: every block row,
// its synopsis (column blocks) within it.
func (sc *chunkScan) plainChunk(ctx context.Context, a, b int64, ends *[2]int64) error {
	sc.cols = growValues(sc.cols, len(sc.data.columns)+1)
	var end int64
	return sc.r.rows(ctx, sc.buf, sc.data, a, b, nil, sc.cols, func(first int64) error {
		var syn []byte // layout 2's, in the row (a scan of layout 3 without its index has none)
		if len(sc.cols) > 3 {
			syn = sc.cols[3].Bytes
		}
		if err := sc.fill(first, 0, sc.cols[1].Bytes, sc.cols[2].Bytes, syn); err != nil {
			return err
		}
		if end != 0 && first != end {
			return sc.s.damaged(fmt.Sprintf("its blocks do not follow one another: solutions %d to %d are missing or repeated", min(end, first), max(end, first)-1))
		}
		if ends[0] == 0 {
			ends[0] = first
		}
		end = first + int64(sc.blk.N)
		ends[1] = end
		if end <= sc.lo || first > sc.hi {
			return nil
		}
		if sc.q.Select != nil && !sc.q.Select(sc.w, &sc.blk) {
			sc.skipped++
			return nil
		}
		sc.read++
		return sc.fn(sc.w, &sc.blk)
	})
}

func growValues(v []pagefile.Value, n int) []pagefile.Value {
	if cap(v) < n {
		return make([]pagefile.Value, n)
	}
	return v[:n]
}

func growBytes(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}
