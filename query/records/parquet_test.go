package records

import (
	"bytes"
	"slices"
	"testing"

	"github.com/parquet-go/parquet-go"

	"solcat/canon"
	"solcat/query"
)

// TestParquetRoundTrip writes solutions and classes as Parquet, reads the
// files back and checks every row, and checks that the bytes are stable.
func TestParquetRoundTrip(t *testing.T) {
	p := canon.Puzzle{Kind: canon.Queens, N: 5}
	sols := []query.Solution{
		{ID: 1, Cells: []byte{0, 2, 4, 1, 3}, ClassID: 1, Symmetry: canon.Identity, Orbit: 8},
		{ID: 2, Cells: []byte{0, 3, 1, 4, 2}, ClassID: 1, Symmetry: canon.Transpose, Orbit: 8},
	}
	for i := 3; i <= 10000; i++ { // more than one batch
		sols = append(sols, query.Solution{ID: int64(i), Cells: []byte{1, 3, 0, 2, 4}, ClassID: 2, Symmetry: canon.Rot90, Orbit: 2})
	}
	write := func() []byte {
		var buf bytes.Buffer
		w := newParquetSolutionWriter(&buf, Dataset{Puzzle: p, Version: "test", Cells: CellList})
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
	data := write()
	if !bytes.Equal(data, write()) {
		t.Error("two writes of the same rows differ")
	}
	rows, err := parquet.Read[parquetSolution](bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(sols) {
		t.Fatalf("read %d rows, wrote %d", len(rows), len(sols))
	}
	for i, r := range rows {
		s := sols[i]
		want := parquetSolution{s.ID, s.ClassID, int32(s.Orbit), s.Symmetry.String(), s.Props.Names(), cellsInt32(p, s.Cells)}
		if r.ID != want.ID || r.Class != want.Class || r.Orbit != want.Orbit || r.Symmetry != want.Symmetry || !slices.Equal(r.Cells, want.Cells) {
			t.Fatalf("row %d: read %+v, wrote %+v", i, r, want)
		}
	}
	if rows[0].Cells[1] != 3 {
		t.Errorf("queens cells are not 1-based columns: %v", rows[0].Cells)
	}

	var buf bytes.Buffer
	cw := newParquetClassWriter(&buf, Dataset{Puzzle: p, Version: "test", Cells: CellList})
	cw.Write(query.Class{ID: 1, Canonical: []byte{0, 2, 4, 1, 3}, Orbit: 8, Matching: 8, Props: canon.Asymmetric})
	cw.Close()
	classes, err := parquet.Read[parquetClass](bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil || len(classes) != 1 || classes[0].Props[0] != "asymmetric" || classes[0].Matching != 8 {
		t.Fatalf("classes read back: %+v, %v", classes, err)
	}
}
