package pagefile

import (
	"bytes"
	"database/sql"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	_ "modernc.org/sqlite"
)

// makeDB writes an SQLite file with a table t (rowid, a blob, an integer,
// a text) of rows rows, each blob size(i) bytes, and returns its path and
// the root page of t.
func makeDB(t *testing.T, rows int, size func(i int) int) (string, uint32) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("CREATE TABLE t (id INTEGER PRIMARY KEY, b BLOB, v INTEGER, s TEXT)"); err != nil {
		t.Fatal(err)
	}
	tx, _ := db.Begin()
	for i := 1; i <= rows; i++ {
		b := bytes.Repeat([]byte{byte(i)}, size(i))
		if _, err := tx.Exec("INSERT INTO t VALUES (?, ?, ?, ?)", 3*i, b, ints[i%len(ints)], "row"); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var root uint32
	if err := db.QueryRow("SELECT rootpage FROM sqlite_schema WHERE name = 't'").Scan(&root); err != nil {
		t.Fatal(err)
	}
	return path, root
}

// ints are integers of every width SQLite stores.
var ints = []int64{0, 1, -1, 127, -128, 300, -70000, 1 << 23, -(1 << 30), 1 << 40, -(1 << 47), math.MaxInt64, math.MinInt64}

// readAll reads the rows of t with rowids above lo and at most hi, through
// Leaves, a Reader and Record.
func readAll(f *File, root uint32, lo, hi int64, buf int) (ids []int64, vals []int64, sizes []int, err error) {
	leaves, err := f.Leaves(root, lo, hi, nil, nil)
	if err != nil {
		return nil, nil, nil, err
	}
	pages := make([]uint32, len(leaves))
	for i, l := range leaves {
		pages[i] = l.Page
	}
	cols := make([]Value, 4)
	err = f.NewReader(buf).Each(pages, func(no uint32, p Page) error {
		return f.Rows(p, lo, hi, func(rowid int64, rec []byte) error {
			if err := Record(rec, cols); err != nil {
				return err
			}
			if !cols[0].Null || !cols[2].IsInt || string(cols[3].Bytes) != "row" {
				return errors.New("columns not as written")
			}
			for _, b := range cols[1].Bytes {
				if b != byte(rowid/3) {
					return errors.New("blob not as written")
				}
			}
			ids, vals, sizes = append(ids, rowid), append(vals, cols[2].Int), append(sizes, len(cols[1].Bytes))
			return nil
		})
	})
	return ids, vals, sizes, err
}

func TestReadsWhatSQLiteWrote(t *testing.T) {
	for _, tc := range []struct {
		name   string
		rows   int
		size   func(int) int
		lo, hi int64
		buf    int
	}{
		{"one page a row", 3000, func(int) int { return 4000 }, math.MinInt64, math.MaxInt64, 1 << 20},
		{"small rows", 20000, func(i int) int { return i % 50 }, math.MinInt64, math.MaxInt64, 64 << 10},
		{"a range", 5000, func(int) int { return 2000 }, 3000, 9001, 8 << 10},
		{"one row", 5000, func(int) int { return 2000 }, 2999, 3000, 4096},
		{"none", 500, func(int) int { return 10 }, 5000, 6000, 4096},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path, root := makeDB(t, tc.rows, tc.size)
			f, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			ids, vals, sizes, err := readAll(f, root, tc.lo, tc.hi, tc.buf)
			if err != nil {
				t.Fatal(err)
			}
			var want []int64
			for i := 1; i <= tc.rows; i++ {
				if id := int64(3 * i); id > tc.lo && id <= tc.hi {
					want = append(want, id)
				}
			}
			if len(ids) != len(want) {
				t.Fatalf("%d rows read, want %d", len(ids), len(want))
			}
			for k, id := range ids {
				i := int(id / 3)
				if id != want[k] || vals[k] != ints[i%len(ints)] || sizes[k] != tc.size(i) {
					t.Fatalf("row %d: id %d value %d size %d, want %d %d %d", k, id, vals[k], sizes[k], want[k], ints[i%len(ints)], tc.size(i))
				}
			}
			if err := f.Unchanged(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestOverflowIsNotPlain(t *testing.T) {
	path, root := makeDB(t, 50, func(i int) int { return 3000 + 100*i })
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, _, _, err := readAll(f, root, math.MinInt64, math.MaxInt64, 1<<20); !errors.Is(err, ErrNotPlain) {
		t.Fatalf("rows on overflow pages read with %v, want ErrNotPlain", err)
	}
}

func TestCutShortIsChanged(t *testing.T) {
	path, root := makeDB(t, 3000, func(int) int { return 4000 })
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.Truncate(path, 1<<20); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := readAll(f, root, math.MinInt64, math.MaxInt64, 1<<20); !errors.Is(err, ErrChanged) && !errors.Is(err, ErrNotPlain) {
		t.Fatalf("a file cut short read with %v", err)
	}
	if err := f.Unchanged(); !errors.Is(err, ErrChanged) {
		t.Fatalf("Unchanged on a file cut short: %v", err)
	}
	if _, err := Open(path); !errors.Is(err, ErrChanged) {
		t.Fatalf("Open of a file shorter than its pages: %v", err)
	}
}

func TestReplacedIsChanged(t *testing.T) {
	path, _ := makeDB(t, 300, func(int) int { return 100 })
	other, _ := makeDB(t, 500, func(int) int { return 300 })
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, err := os.ReadFile(other)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil { // in place, as cp does
		t.Fatal(err)
	}
	if err := f.Unchanged(); !errors.Is(err, ErrChanged) {
		t.Fatalf("Unchanged on a file replaced in place: %v", err)
	}
}

func TestNotSQLite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x")
	os.WriteFile(path, bytes.Repeat([]byte("x"), 8192), 0o644)
	if _, err := Open(path); !errors.Is(err, ErrNotPlain) {
		t.Fatalf("Open of a file that is not SQLite: %v", err)
	}
}

func TestVarint(t *testing.T) {
	for _, v := range []uint64{0, 1, 127, 128, 16383, 16384, 1 << 35, 1<<56 - 1, 1 << 56, math.MaxUint64} {
		b := putVarint(v)
		got, n := varint(b)
		if got != v || n != len(b) {
			t.Errorf("varint(%x) = %d, %d; want %d, %d", b, got, n, v, len(b))
		}
		if _, n := varint(b[:len(b)-1]); n != 0 {
			t.Errorf("a varint cut short read as %d bytes", n)
		}
	}
}

// putVarint writes v as SQLite does.
func putVarint(v uint64) []byte {
	if v > 1<<56-1 {
		b := make([]byte, 9)
		b[8] = byte(v)
		v >>= 8
		for i := 7; i >= 0; i-- {
			b[i] = byte(v&0x7f) | 0x80
			v >>= 7
		}
		return b
	}
	var rev []byte
	for {
		rev = append(rev, byte(v&0x7f))
		v >>= 7
		if v == 0 {
			break
		}
	}
	b := make([]byte, len(rev))
	for i := range rev {
		b[i] = rev[len(rev)-1-i]
		if i < len(rev)-1 {
			b[i] |= 0x80
		}
	}
	return b
}

// TestLeavesOfOnly: Leaves with only lists the leaves that hold the rowids
// asked for, every one of them, and fewer leaves than the whole range.
func TestLeavesOfOnly(t *testing.T) {
	path, root := makeDB(t, 20000, func(int) int { return 500 }) // three levels
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	all, err := f.Leaves(root, math.MinInt64, math.MaxInt64, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		only    []int64
		lo, hi  int64
		allHeld bool // every rowid of only is in the table and the range: every leaf listed holds one
	}{
		{"first and last", []int64{3, 60000}, 0, 60000, true},
		{"a run", []int64{30000, 30003, 30006, 30009}, 0, 60000, true},
		{"scattered", []int64{300, 9000, 9003, 27000, 45003, 59997}, 0, 60000, true},
		{"outside the range", []int64{300, 9000, 45003}, 8999, 45000, false},
		{"rowids not in the table", []int64{1, 2, 60001}, 0, 70000, false},
		{"none", []int64{}, 0, 60000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			leaves, err := f.Leaves(root, tc.lo, tc.hi, tc.only, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(leaves) > len(tc.only) || tc.allHeld && len(tc.only) > 0 && len(leaves) == 0 {
				t.Fatalf("%d leaves for %d rowids", len(leaves), len(tc.only))
			}
			found := map[int64]bool{}
			for _, l := range leaves {
				held := false
				err := f.NewReader(4096).Each([]uint32{l.Page}, func(_ uint32, p Page) error {
					return f.Rows(p, tc.lo, tc.hi, func(rowid int64, _ []byte) error {
						if slices.Contains(tc.only, rowid) {
							found[rowid], held = true, true
						}
						return nil
					})
				})
				if err != nil {
					t.Fatal(err)
				}
				if !held && tc.allHeld {
					t.Errorf("leaf %d holds none of the rowids asked for", l.Page)
				}
			}
			for _, id := range tc.only {
				if id > tc.lo && id <= tc.hi && id%3 == 0 && id <= 60000 && !found[id] {
					t.Errorf("rowid %d is on no leaf listed", id)
				}
			}
		})
	}
	if len(all) < 1000 {
		t.Fatalf("the table has %d leaves: too few to test the walk", len(all))
	}
}
