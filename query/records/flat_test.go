package records

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/format"

	"solcat/canon"
	"solcat/query"
)

// readFlat reads a Parquet file with parquet-go: the leaf columns' names
// (a list by its top name) and each row's values as text (a list's joined
// by spaces).
func readFlat(t *testing.T, data []byte) (names []string, rows []string, f *parquet.File) {
	t.Helper()
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range f.Schema().Columns() {
		names = append(names, path[0])
	}
	for _, rg := range f.RowGroups() {
		rr := rg.Rows()
		buf := make([]parquet.Row, 100)
		for {
			n, err := rr.ReadRows(buf)
			for _, row := range buf[:n] {
				vals := make([]string, len(names))
				for _, v := range row {
					if v.IsNull() {
						continue
					}
					if vals[v.Column()] != "" {
						vals[v.Column()] += " "
					}
					vals[v.Column()] += v.String()
				}
				rows = append(rows, strings.Join(vals, ","))
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		rr.Close()
	}
	return names, rows, f
}

// flatSolutions makes n solutions of p with random cells, gaps in the IDs
// and every orbit, symmetry and property set.
func flatSolutions(p canon.Puzzle, n int, seed uint64) []query.Solution {
	r := rand.New(rand.NewPCG(seed, 1))
	var out []query.Solution
	id := int64(0)
	for i := range n {
		id += 1 + int64(r.IntN(3))*int64(i%2) // runs of consecutive IDs, then gaps
		cells := make([]byte, p.Len())
		for k := range cells {
			if p.Kind == canon.Queens {
				cells[k] = byte(r.IntN(p.N))
			} else {
				cells[k] = byte(1 + r.IntN(p.N*p.N))
			}
		}
		props := canon.Property(r.Uint32()) & (canon.Pandiagonal | canon.SelfComplementary | canon.Dudeney(1+r.IntN(12)))
		if p.Kind == canon.Queens {
			props = []canon.Property{canon.Rot90Symmetric, canon.Rot180Only, canon.Asymmetric}[r.IntN(3)]
		}
		out = append(out, query.Solution{ID: id, Cells: cells, ClassID: 1 + r.Int64N(1<<30), Symmetry: canon.All[r.IntN(8)],
			Orbit: []int{1, 2, 4, 8}[r.IntN(4)], Props: props})
	}
	return out
}

func writeFlat(t *testing.T, d Dataset, sols []query.Solution) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := newParquetSolutionWriter(&buf, d)
	for _, s := range sols {
		if err := w.Write(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestFlatParquetReadBack writes solutions in the flat layout and reads
// them back with parquet-go, row by row, for row counts around the 8
// values of a bit-packed group and the 128 of a delta block, and around
// the row groups' size.
func TestFlatParquetReadBack(t *testing.T) {
	defer func(rows int) { flatGroupRows = rows }(flatGroupRows)
	flatGroupRows = 300
	for _, c := range []struct {
		puzzle string
		rows   int
	}{
		{"queens:1", 1}, {"queens:5", 0}, {"queens:5", 7}, {"queens:8", 129}, {"queens:12", 300}, {"queens:16", 301},
		{"magic:3", 9}, {"magic:4", 1000}, {"magic:5", 257}, {"queens:19", 65},
	} {
		t.Run(fmt.Sprintf("%s-%d", c.puzzle, c.rows), func(t *testing.T) {
			p, err := canon.ParsePuzzle(c.puzzle)
			if err != nil {
				t.Fatal(err)
			}
			sols := flatSolutions(p, c.rows, uint64(c.rows))
			names, rows, f := readFlat(t, writeFlat(t, Dataset{Puzzle: p, Version: "v1"}, sols))
			want := append([]string{"id", "class", "orbit", "symmetry", "props"}, CellColumnNames(p)...)
			if strings.Join(names, " ") != strings.Join(want, " ") {
				t.Fatalf("columns %v, want %v", names, want)
			}
			if len(rows) != len(sols) {
				t.Fatalf("read %d rows, wrote %d", len(rows), len(sols))
			}
			for i, s := range sols {
				cells := make([]string, len(s.Cells))
				for k, v := range cellsInt32(p, s.Cells) {
					cells[k] = fmt.Sprint(v)
				}
				w := fmt.Sprintf("%d,%d,%d,%s,%s,%s", s.ID, s.ClassID, s.Orbit, s.Symmetry, strings.Join(s.Props.Names(), " "), strings.Join(cells, ","))
				if rows[i] != w {
					t.Fatalf("row %d: read %s, wrote %s", i, rows[i], w)
				}
			}
			if groups := len(f.RowGroups()); groups != (c.rows+299)/300 {
				t.Errorf("%d row groups for %d rows", groups, c.rows)
			}
			// The smallest unsigned types, and statistics on every chunk.
			for _, col := range f.Schema().Fields()[5:] {
				if lt, ok := col.Type().LogicalType().Value.(*format.IntType); !ok || lt.IsSigned || lt.BitWidth != 8 {
					t.Errorf("column %s: logical type %v, want UINT8", col.Name(), lt)
				}
			}
			for _, rg := range f.Metadata().RowGroups {
				for _, ch := range rg.Columns {
					if ch.MetaData.Statistics.MinValue == nil && ch.MetaData.NumValues > 0 && ch.MetaData.PathInSchema[0] != "props" {
						t.Errorf("column %v has no min", ch.MetaData.PathInSchema)
					}
				}
			}
		})
	}
}

// TestFlatParquetWorkers: the bytes are the same whatever the number of
// workers that encode the row groups, and across writes.
func TestFlatParquetWorkers(t *testing.T) {
	defer func(rows, workers int) { flatGroupRows, flatWorkers = rows, workers }(flatGroupRows, flatWorkers)
	flatGroupRows = 1000
	p := canon.Puzzle{Kind: canon.Queens, N: 12}
	sols := flatSolutions(p, 10500, 7)
	var first []byte
	for _, workers := range []int{1, 2, 3, 8} {
		t.Run(fmt.Sprint(workers), func(t *testing.T) {
			flatWorkers = workers
			data := writeFlat(t, Dataset{Puzzle: p, Version: "v1"}, sols)
			if first == nil {
				first = data
			}
			if !bytes.Equal(data, first) {
				t.Errorf("%d workers wrote other bytes than 1", workers)
			}
		})
	}
}

// TestFlatParquetClasses writes classes in the flat layout: class, orbit,
// matching, props and the canonical form's cells.
func TestFlatParquetClasses(t *testing.T) {
	p := canon.Puzzle{Kind: canon.Magic, N: 3}
	var buf bytes.Buffer
	w := newParquetClassWriter(&buf, Dataset{Puzzle: p})
	w.Write(query.Class{ID: 1, Canonical: []byte{2, 7, 6, 9, 5, 1, 4, 3, 8}, Orbit: 8, Matching: 3, Props: canon.Associative})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	names, rows, _ := readFlat(t, buf.Bytes())
	if got := strings.Join(names, " "); got != "class orbit matching props r1c1 r1c2 r1c3 r2c1 r2c2 r2c3 r3c1 r3c2 r3c3" {
		t.Errorf("columns %s", got)
	}
	if len(rows) != 1 || rows[0] != "1,8,3,associative,2,7,6,9,5,1,4,3,8" {
		t.Errorf("rows %q", rows)
	}
}

// TestPackers checks the bit packing of the hybrid encoding and the
// delta encoding against values worked out by hand.
func TestPackers(t *testing.T) {
	for _, c := range []struct {
		name string
		got  []byte
		want []byte
	}{
		// 8 values of 3 bits 0..7: the format's own example, 10001000 11000110 11111010.
		{"hybrid 3 bits", hybridPack(nil, []uint16{0, 1, 2, 3, 4, 5, 6, 7}, 3), []byte{0x03, 0x88, 0xc6, 0xfa}},
		{"hybrid padded", hybridPack(nil, []uint16{1}, 1), []byte{0x03, 0x01}},
		{"packBits 64", packBits(nil, []uint64{1<<64 - 1, 1}, 64), []byte{255, 255, 255, 255, 255, 255, 255, 255, 1, 0, 0, 0, 0, 0, 0, 0}},
		{"packBits 12", packBits(nil, []uint16{0xabc, 0x123}, 12), []byte{0xbc, 0x3a, 0x12}},
		// 1..5: header 128, 4, 5, first 1 (zigzag 2); block: min delta 1 (zigzag 2), widths 0.
		{"delta consecutive", deltaPack(nil, []int64{1, 2, 3, 4, 5}), []byte{0x80, 0x01, 4, 5, 2, 2, 0, 0, 0, 0}},
		{"delta empty", deltaPack(nil, nil), []byte{0x80, 0x01, 4, 0, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !bytes.Equal(c.got, c.want) {
				t.Errorf("got % x, want % x", c.got, c.want)
			}
		})
	}
}
