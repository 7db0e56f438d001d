package catalog

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"solcat/canon"
)

// TestColumnBlocksNoLarger checks, for every puzzle solcat can store
// solution by solution, that a column block with its synopsis holds at
// least as many solutions as a row-major block did (so no more bytes per
// solution) and still fits a 4 KiB page without overflow: SQLite keeps a
// row of up to 4,061 bytes on the page, and a block row adds at most 21
// bytes of its own (its number, its length and its record header).
func TestColumnBlocksNoLarger(t *testing.T) {
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
			rowMajor := min(maxBlockSolutions, max(1, blockBytes/(p.Len()+b.Digits)))
			per := solutionsPerBlock(p.Len(), b.Digits, b.synopsisBytes())
			if per < rowMajor {
				t.Errorf("%d solutions to a column block, %d to a row-major one", per, rowMajor)
			}
			if row := per*(p.Len()+b.Digits) + b.synopsisBytes() + 21; row > 4061 && per > 1 {
				t.Errorf("a full block row takes up to %d bytes, more than a page holds", row)
			}
		})
	}
}

// TestColumnBlocksRead writes blocks of random cells with the writer's
// transpose and synopsis and reads them back through Blocks and Scan: the
// same cells, a synopsis that holds each value present and no other.
func TestColumnBlocksRead(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		p canon.Puzzle
		n int // solutions in the block
	}{
		{queens(8), 1}, {queens(8), 7}, {queens(13), 200}, {canon.Puzzle{Kind: canon.Magic, N: 4}, 200}, {queens(17), 160},
	} {
		t.Run(fmt.Sprintf("%s %d", tc.p, tc.n), func(t *testing.T) {
			c := newTestCatalog(t)
			defer c.Close()
			b := puzzleBlocks(tc.p, 9)
			b.Table = "test_blocks"
			if _, err := c.db.Exec("CREATE TABLE test_blocks (first_id INTEGER PRIMARY KEY, cells BLOB NOT NULL, class_syms TEXT NOT NULL, synopsis BLOB NOT NULL)"); err != nil {
				t.Fatal(err)
			}
			size := tc.p.Len()
			rows := make([]byte, tc.n*size)
			var syms []byte
			for k := range tc.n {
				for i := range size {
					v := (k*7 + i*i*3 + k/5) % size
					if tc.p.Kind == canon.Magic {
						v = 1 + (k*5+i*3)%(size) // values 1..16
					}
					rows[k*size+i] = byte(v)
				}
				syms = appendDigits(syms, int64(9<<3|k%8), b.Digits)
			}
			cols := make([]byte, len(rows))
			transpose(cols, rows, tc.n, size)
			syn := b.appendSynopsis(nil, cols, tc.n)
			if _, err := c.db.Exec("INSERT INTO test_blocks VALUES (11, ?, ?, ?)", cols, string(syms), syn); err != nil {
				t.Fatal(err)
			}
			var blocks int
			err := b.Blocks(ctx, c.db, 1, 1<<40, func(blk *Block) error {
				blocks++
				cells := make([]byte, size)
				for k := range tc.n {
					if s := blk.Solution(k, cells); s.ID != 11+int64(k) || !bytes.Equal(s.Cells, rows[k*size:(k+1)*size]) {
						t.Errorf("solution %d: %v, want %v", s.ID, s.Cells, rows[k*size:(k+1)*size])
					}
				}
				for i := range size {
					for v := range b.Bits {
						if want := bytes.IndexByte(blk.Column(i), byte(v)) >= 0; blk.MayHold(i, byte(v)) != want {
							t.Errorf("cell %d, value %d: the synopsis says %v", i, v, !want)
						}
					}
				}
				return nil
			})
			if err != nil || blocks != 1 {
				t.Fatalf("%d blocks, %v", blocks, err)
			}
			// Only the cells asked for: the same bytes as those columns.
			blocks = 0
			err = b.BlockColumns(ctx, c.db, 1, 1<<40, []int{size - 1, 0}, true, func(blk *Block) error {
				blocks++
				if id, ok := blk.ClassOf(tc.n - 1); id != 9 || !ok {
					t.Errorf("the last solution's class: %d, %v", id, ok)
				}
				for _, i := range []int{0, size - 1} {
					if want := cols[i*tc.n : (i+1)*tc.n]; !bytes.Equal(blk.Column(i), want) || !blk.MayHold(i, want[0]) {
						t.Errorf("cell %d read alone: %v, want %v", i, blk.Column(i), want)
					}
				}
				return nil
			})
			if err != nil || blocks != 1 {
				t.Fatalf("%d blocks read by cells, %v", blocks, err)
			}
			k := 0
			err = b.ScanReporting(ctx, c.db, 1, 1<<40, func(s StoredSolution) error {
				if !bytes.Equal(s.Cells, rows[k*size:(k+1)*size]) {
					t.Errorf("scanned solution %d: %v", s.ID, s.Cells)
				}
				k++
				return nil
			}, func(err error) { t.Error(err) })
			if err != nil || k != tc.n {
				t.Fatalf("scanned %d solutions, %v", k, err)
			}
			// A synopsis that says less than its block is damage a check sees.
			if _, err := c.db.Exec("UPDATE test_blocks SET synopsis = zeroblob(length(synopsis))"); err != nil {
				t.Fatal(err)
			}
			var damage []error
			if err := b.ScanReporting(ctx, c.db, 1, 1<<40, func(StoredSolution) error { return nil }, func(err error) { damage = append(damage, err) }); err != nil || len(damage) != 1 {
				t.Errorf("a zeroed synopsis: %v, %v", damage, err)
			}
		})
	}
}
