package catalog

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"solcat/canon"
	"solcat/catalog/catfile"
)

// TestIndexedBlocksNoLarger checks, for every puzzle solcat can store
// solution by solution, that a block of layout 3 with its share of the
// block index takes no more bytes per solution than a block of layout 2
// (its synopsis in the row, decimal class entries) did, and that a full
// block row and a full index row each fit a 4 KiB page without overflow:
// SQLite keeps a row of up to 4,061 bytes on the page, and a row adds at
// most 21 bytes of its own (its number, its length and its record header).
func TestIndexedBlocksNoLarger(t *testing.T) {
	var puzzles []canon.Puzzle
	for n := 1; n <= 4; n++ {
		puzzles = append(puzzles, canon.Puzzle{Kind: canon.Magic, N: n})
	}
	for n := 1; n <= 17; n++ {
		puzzles = append(puzzles, queens(n))
	}
	for _, p := range puzzles {
		t.Run(p.String(), func(t *testing.T) {
			known, ok := canon.KnownCounts(p)
			if !ok {
				t.Fatal("no published counts")
			}
			b := puzzleBlocks(p, known.Classes)
			old := olderBlocks(p, known.Classes, 2)
			oldPer := min(maxBlockSolutions, max(1, (columnBlockBytes-old.synopsisBytes())/(p.Len()+old.Digits)))
			per := b.perBlock()
			// A page a block, and the index's pages shared by the blocks it
			// describes.
			if newBytes, oldBytes := 4096/float64(per)+4096/float64(per*b.indexPerRow()), 4096/float64(oldPer); newBytes > oldBytes && known.Solutions > int64(per) {
				t.Errorf("%.2f bytes a solution, %.2f in layout 2", newBytes, oldBytes)
			}
			if row := per*(p.Len()+b.Digits) + 21; row > 4061 && per > 1 {
				t.Errorf("a full block row takes up to %d bytes, more than a page holds", row)
			}
			if row := b.indexPerRow()*b.indexEntryBytes() + 21 + 9; row > 4061 {
				t.Errorf("a full index row takes up to %d bytes, more than a page holds", row)
			}
		})
	}
}

// scannedCatalog writes a queens:17 catalog of made-up solutions in enough
// blocks for b-trees three pages deep, and opens it to read.
func scannedCatalog(t *testing.T, rows int) (*Content, string) {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "cat.db")
	w, err := Create(ctx, path, catfile.Holder{})
	if err != nil {
		t.Fatal(err)
	}
	writePuzzle(t, w, 17, rows, 0)
	w.Close()
	return openContent(t, path), path
}

// openContent opens the catalog at path to read, and its queens:17.
func openContent(t *testing.T, path string) *Content {
	t.Helper()
	ctx := context.Background()
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
	if s.blocks.Layout != 3 || !r.immutable {
		t.Fatal("the test catalog is not read as an immutable file of indexed blocks")
	}
	return s
}

// scanText is every block a scan hands over, as text, in ID order.
func scanText(t *testing.T, s *Content, q BlockScan) ([]string, ScanReport) {
	t.Helper()
	var got []string
	var mu sync.Mutex
	report, err := s.ScanBlocks(context.Background(), q, func(_ int, b *Block) error {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, fmt.Sprintf("%d %d %x %s %x", b.First, b.N, b.part, b.syms, b.syn))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	return got, report
}

// TestScansMatchSQL checks that a scan from the file's pages hands over
// the blocks a scan through SQLite does, byte for byte, on one goroutine
// and on several, for ranges that start and end inside blocks, at the ends
// and past them, with every cell or a few, and with blocks skipped.
func TestScansMatchSQL(t *testing.T) {
	const rows = 500_000
	s, path := scannedCatalog(t, rows)
	viaSQL := openContent(t, path)
	viaSQL.throughSQL = true
	ranges := [][2]int64{{1, rows}, {1, 1}, {159, 161}, {250_000, 250_100}, {rows - 10, rows + 1000}, {rows + 1, rows + 5}, {-5, 3}}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		lo := rng.Int64N(rows) + 1
		ranges = append(ranges, [2]int64{lo, lo + rng.Int64N(rows/4)})
	}
	var most int
	for _, r := range ranges {
		for _, q := range []BlockScan{
			{Lo: r[0], Hi: r[1]},
			{Lo: r[0], Hi: r[1], Workers: 3, Cells: []int{16, 2}, Classes: true},
			{Lo: r[0], Hi: r[1], Workers: 2, Cells: []int{16}, Select: func(_ int, b *Block) bool { return b.MayHold(16, byte(b.First%7)) }},
		} {
			a, ra := scanText(t, s, q)
			b, rb := scanText(t, viaSQL, q)
			if !slices.Equal(a, b) || ra != rb {
				t.Errorf("IDs %d to %d, %d workers: %d blocks (%+v) from the pages, %d (%+v) through SQL, or different bytes", r[0], r[1], q.Workers, len(a), ra, len(b), rb)
			}
			most = max(most, len(a))
		}
	}
	if most < 2000 {
		t.Errorf("only %d blocks: the b-tree is too shallow to test", most)
	}
}

// TestScanFallsBackToSQL damages a leaf page of the blocks in the file:
// the page reader stops there, and the scan goes on through SQLite, which
// reports the damage; an index entry's checksum that does not match is
// found too, and so is a file cut short under the reader.
func TestScanFallsBackToSQL(t *testing.T) {
	const rows = 200_000
	_, path := scannedCatalog(t, rows)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// A leaf page of the blocks half-way through the file: a row there
	// holds a block's cells (type 0x0d, one cell).
	damaged := slices.Clone(data)
	for p := len(data) / 4096 / 2; ; p++ {
		at := p * 4096
		if damaged[at] == 0x0d && damaged[at+4] == 1 {
			damaged[at+2000] ^= 0x55 // in the cells: the page stays plain
			break
		}
	}
	copyPath := filepath.Join(t.TempDir(), "damaged.db")
	if err := os.WriteFile(copyPath, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	s := openContent(t, copyPath)
	_, err = s.ScanBlocks(context.Background(), BlockScan{Lo: 1, Hi: rows, Workers: 2}, func(int, *Block) error { return nil })
	var bad *DamagedError
	if !errors.As(err, &bad) || !strings.Contains(err.Error(), "does not match its checksum") {
		t.Errorf("a block whose bytes changed read with %v, want a DamagedError naming its checksum", err)
	}
	// Cut short under an open reader.
	s = openContent(t, path)
	if err := os.Truncate(path, int64(len(data)/2)); err != nil {
		t.Fatal(err)
	}
	_, err = s.ScanBlocks(context.Background(), BlockScan{Lo: 1, Hi: rows, Workers: 2}, func(int, *Block) error { return nil })
	var changed *ChangedError
	if !errors.As(err, &changed) {
		t.Errorf("a file cut short read with %v, want a ChangedError", err)
	}
}

// TestBlocksRead reads back what the writer wrote: each solution's cells
// and class entry, and a synopsis that holds each value its column holds
// and no other.
func TestBlocksRead(t *testing.T) {
	const rows = 3000
	s, _ := scannedCatalog(t, rows)
	seen := 0
	cells := make([]byte, 17)
	_, err := s.ScanBlocks(context.Background(), BlockScan{Lo: 1, Hi: rows}, func(_ int, b *Block) error {
		for k := range b.N {
			sol := b.Solution(k, cells)
			i := int(sol.ID)
			want := []byte{14: byte(i >> 16), 15: byte(i >> 8), 16: byte(i)}
			if class, sym, err := sol.Class(); !slices.Equal(sol.Cells, want) || class != 1 || sym != i%8 || err != nil {
				t.Fatalf("solution %d: %v, class %d, symmetry %d, %v", i, sol.Cells, class, sym, err)
			}
			seen++
		}
		for c := range 17 {
			var only []byte
			for v := range 17 {
				has := slices.Contains(b.Column(c), byte(v))
				if has {
					only = append(only, byte(v))
				}
				if b.MayHold(c, byte(v)) != has {
					t.Errorf("block %d, cell %d, value %d: the synopsis says %v", b.First, c, v, !has)
				}
			}
			if v, ok := b.Only(c); ok != (len(only) == 1) || ok && v != only[0] {
				t.Errorf("block %d, cell %d: Only says %d %v, the column holds %v", b.First, c, v, ok, only)
			}
		}
		return nil
	})
	if err != nil || seen != rows {
		t.Fatalf("%d solutions read, %v", seen, err)
	}
}

// TestChangedUnderReader changes a catalog file after a reader opened it,
// in each way another program might (cut short, written over in place by
// another catalog, a page overwritten), and checks that every way of
// reading it then (a block scan from the pages, one through SQLite, the
// class rows, a user's SQL) ends in a ChangedError or an error, never an
// answer, and that the catalog says it changed; a file renamed over it
// changes nothing the reader reads.
func TestChangedUnderReader(t *testing.T) {
	const rows = 100_000
	_, path := scannedCatalog(t, rows)
	clean, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	otherPath := filepath.Join(t.TempDir(), "other.db")
	w, err := Create(context.Background(), otherPath, catfile.Holder{})
	if err != nil {
		t.Fatal(err)
	}
	writePuzzle(t, w, 17, rows/2, 0)
	w.Close()
	other, err := os.ReadFile(otherPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(path string) error
		reads  bool // the reader still reads the catalog it opened
	}{
		{"cut short", func(path string) error { return os.Truncate(path, int64(len(clean)/3)) }, false},
		{"written over in place", func(path string) error { return os.WriteFile(path, other, 0o644) }, false},
		{"a page overwritten", func(path string) error {
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			defer f.Close()
			// The header too, as SQLite's own writes change it.
			if _, err := f.WriteAt([]byte{0, 0, 0, 9}, 24); err != nil {
				return err
			}
			_, err = f.WriteAt(make([]byte, 4096), int64(len(clean)/2/4096*4096))
			return err
		}, false},
		{"renamed over", func(path string) error {
			tmp := path + ".new"
			if err := os.WriteFile(tmp, other, 0o644); err != nil {
				return err
			}
			return os.Rename(tmp, path)
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			dir := t.TempDir()
			p := filepath.Join(dir, "cat.db")
			if err := os.WriteFile(p, clean, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, read := range []struct {
				name string
				do   func(s *Content) error
			}{
				{"pages", func(s *Content) error {
					_, err := s.ScanBlocks(ctx, BlockScan{Lo: 1, Hi: rows, Workers: 2}, func(int, *Block) error { return nil })
					return err
				}},
				{"sql", func(s *Content) error {
					s.throughSQL = true
					_, err := s.ScanBlocks(ctx, BlockScan{Lo: 1, Hi: rows}, func(int, *Block) error { return nil })
					return err
				}},
				{"classes", func(s *Content) error {
					return s.Classes(ctx, 1, 1, ClassFilter{}, func(ClassRow) error { return nil })
				}},
				{"user sql", func(s *Content) error {
					r, err := s.c.Query(ctx, "SELECT count(*), sum(length(cells)) FROM solution_blocks_queens_17")
					if err != nil {
						return err
					}
					defer r.Close()
					for r.Next() {
					}
					if err := r.Err(); err != nil {
						return err
					}
					if err := s.c.Changed(); err != nil {
						return err
					}
					return nil
				}},
			} {
				if err := os.WriteFile(p, clean, 0o644); err != nil {
					t.Fatal(err)
				}
				s := openContent(t, p)
				if err := tc.change(p); err != nil {
					t.Fatal(err)
				}
				// A read that meets the change fails (a ChangedError, or
				// damage that SQLite found); one that does not may finish.
				// Either way the catalog says it changed, and a command then
				// gives that as its outcome, not what it read.
				err := read.do(s)
				switch {
				case tc.reads && (err != nil || s.c.changed()):
					t.Errorf("%s: %v, changed %v; want the catalog opened read to the end", read.name, err, s.c.changed())
				case !tc.reads && !s.c.changed():
					t.Errorf("%s: %v, and the catalog does not say it changed", read.name, err)
				}
			}
		})
	}
}
