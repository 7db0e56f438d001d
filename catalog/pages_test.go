package catalog

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// appendVarint writes v as SQLite does (the inverse of varint).
func appendVarint(dst []byte, v uint64) []byte {
	if v > 1<<56-1 {
		var b [9]byte
		b[8] = byte(v)
		v >>= 8
		for i := 7; i >= 0; i-- {
			b[i] = byte(v&0x7f) | 0x80
			v >>= 7
		}
		return append(dst, b[:]...)
	}
	var b []byte
	for {
		b = append([]byte{byte(v & 0x7f)}, b...)
		if v >>= 7; v == 0 {
			break
		}
	}
	for i := range len(b) - 1 {
		b[i] |= 0x80
	}
	return append(dst, b...)
}

func TestVarint(t *testing.T) {
	for _, v := range []uint64{0, 1, 127, 128, 240, 2287, 16383, 16384, 1 << 21, 1<<56 - 1, 1 << 56, 1<<63 + 12345, ^uint64(0)} {
		b := appendVarint(nil, v)
		if got, n := varint(append(b, 0xff, 0x01)); got != v || n != len(b) {
			t.Errorf("varint(%x) = %d, %d bytes; want %d, %d", b, got, n, v, len(b))
		}
		if _, n := varint(b[:len(b)-1]); n != 0 {
			t.Errorf("varint of %x cut short read %d bytes", b, n)
		}
	}
}

// pagedCatalog writes a queens:17 catalog of fake solutions in enough
// blocks for a b-tree three pages deep, and opens it to read.
func pagedCatalog(t *testing.T, rows int) (*Content, string) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cat.db")
	w, err := Create(ctx, path, Holder{})
	if err != nil {
		t.Fatal(err)
	}
	writePuzzle(t, w, 17, rows, 0)
	w.Close()
	r, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	rec, ok, err := r.Puzzle(ctx, "queens:17")
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	s, err := r.Content(ctx, queens(17), rec)
	if err != nil {
		t.Fatal(err)
	}
	if !s.blocks.Columnar || !r.immutable {
		t.Fatal("the test catalog is not read as an immutable file of column blocks")
	}
	return s, path
}

// pageBlocks is s.pageBlocks on a connection of its own.
func pageBlocks(t *testing.T, s *Content, from, to int64, fn func(*Block) error) (int64, error) {
	t.Helper()
	conn, err := s.c.db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	return s.pageBlocks(context.Background(), conn, from, to, fn)
}

// readBlocks is every block a scan hands over, as text.
func readBlocks(t *testing.T, scan func(fn func(*Block) error) error) []string {
	t.Helper()
	var got []string
	err := scan(func(b *Block) error {
		got = append(got, fmt.Sprintf("%d %d %x %s %x", b.First, b.N, b.cols, b.syms, b.syn))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestPageBlocksMatchSQL checks that the page reader hands over the blocks
// SQL does, byte for byte, for ranges that start and end inside blocks,
// at the ends and past them.
func TestPageBlocksMatchSQL(t *testing.T) {
	ctx := context.Background()
	const rows = 500_000
	s, _ := pagedCatalog(t, rows)
	ranges := [][2]int64{{1, rows}, {1, 1}, {159, 161}, {250_000, 250_100}, {rows - 10, rows + 1000}, {rows + 1, rows + 5}, {-5, 3}}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		lo := rng.Int64N(rows) + 1
		ranges = append(ranges, [2]int64{lo, lo + rng.Int64N(rows/4)})
	}
	var leaves int
	for _, r := range ranges {
		viaSQL := readBlocks(t, func(fn func(*Block) error) error { return s.blocks.Blocks(ctx, s.c.db, r[0], r[1], fn) })
		viaPages := readBlocks(t, func(fn func(*Block) error) error {
			_, err := pageBlocks(t, s, r[0], r[1], fn)
			return err
		})
		if !slices.Equal(viaSQL, viaPages) {
			t.Errorf("IDs %d to %d: %d blocks from the pages, %d from SQL, or different bytes", r[0], r[1], len(viaPages), len(viaSQL))
		}
		leaves = max(leaves, len(viaSQL))
	}
	if leaves < 2000 {
		t.Errorf("only %d blocks: the b-tree is too shallow to test", leaves)
	}
	// BlockColumns hands over the same cells.
	var n int
	err := s.BlockColumns(ctx, 1, rows, []int{16}, true, func(b *Block) error {
		n += b.N
		if id, ok := b.ClassOf(0); !ok || id != 1 {
			return fmt.Errorf("block %d: class %d", b.First, id)
		}
		return nil
	})
	if err != nil || n != rows {
		t.Errorf("BlockColumns read %d solutions, %v", n, err)
	}
}

// TestPageBlocksFallBack damages a leaf page in a copy of the file: the
// page reader stops there, and the scan goes on through SQL from the
// first block it did not hand over, with the same blocks in all.
func TestPageBlocksFallBack(t *testing.T) {
	ctx := context.Background()
	const rows = 200_000
	s, path := pagedCatalog(t, rows)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pf, err := newPageFile(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A leaf page of the blocks half-way through the file: a row there
	// holds a block's cells (type 0x0d, one cell).
	for p := len(data) / pf.pageSize / 2; ; p++ {
		at := p * pf.pageSize
		if data[at] == 0x0d && data[at+4] == 1 {
			data[at] = 0x0a // an index leaf: not a table page
			break
		}
	}
	defer func(m func(string) (*pageFile, error)) { mapCatalogPages = m }(mapCatalogPages)
	mapCatalogPages = func(string) (*pageFile, error) { return newPageFile(data, nil) }

	next, err := pageBlocks(t, s, 1, rows, func(*Block) error { return nil })
	if !errors.Is(err, errNotPlain) || next <= 1 || next >= rows {
		t.Fatalf("the damaged copy read to %d, %v; want a stop part-way", next, err)
	}
	viaSQL := readBlocks(t, func(fn func(*Block) error) error { return s.blocks.Blocks(ctx, s.c.db, 1, rows, fn) })
	both := readBlocks(t, func(fn func(*Block) error) error { return s.Blocks(ctx, 1, rows, fn) })
	if !slices.Equal(viaSQL, both) {
		t.Errorf("with the fall-back: %d blocks, SQL alone %d, or different bytes", len(both), len(viaSQL))
	}
}

// TestRecordColumnsDamaged: records whose header does not fit them are
// errNotPlain, never a panic.
func TestRecordColumnsDamaged(t *testing.T) {
	cols := make([][]byte, 2)
	for _, tc := range []struct {
		name string
		rec  []byte
	}{
		{"a serial type of 2^64-1", append([]byte{10}, appendVarint(nil, ^uint64(0))...)},
		{"a blob past the end", []byte{3, 0, 13 + 2*50}},
		{"a header past the end", []byte{40, 0}},
		{"an integer column", []byte{3, 0, 1, 7}},
		{"too few columns", []byte{2, 0}},
		{"empty", nil},
	} {
		if err := recordColumns(tc.rec, cols); !errors.Is(err, errNotPlain) {
			t.Errorf("%s: %v, want errNotPlain", tc.name, err)
		}
	}
	if err := recordColumns([]byte{3, 0, 16, 'a', 'b'}, cols); err != nil || cols[0] != nil || string(cols[1]) != "ab" {
		t.Errorf("a NULL and a 2-byte blob: %q, %v", cols, err)
	}
}
