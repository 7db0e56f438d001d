package catalog

import (
	"context"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"solcat/canon"
)

// TestPackedClassesView writes puzzles stored as their classes only, with
// forms of random 5-bit cells (every bit pattern, bytes from 128 up
// among them), orbits and properties, and reads the view SQL users read,
// classes_<p>, against what was written: every class, its form as text,
// orbit, property names and bits; then verify's check of the view.
func TestPackedClassesView(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		p       canon.Puzzle
		classes int64
	}{
		{canon.Puzzle{Kind: canon.Magic, N: 5}, 300},   // 127 a block: the last block part full
		{canon.Puzzle{Kind: canon.Queens, N: 12}, 600}, // 8 bytes a form
		{canon.Puzzle{Kind: canon.Queens, N: 19}, 200}, // 12 bytes a form, the last of them part used
	} {
		t.Run(tc.p.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.p.N), 1))
			c := newTestCatalog(t)
			defer c.Close()
			w, err := c.beginClasses(ctx, tc.p, BuildPlan{Layout: Layout{Solver: "test"}, UnitRows: 1 << 20, RowsTotal: tc.classes}, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Rollback()
			want := map[int64]string{}
			var members int64
			for id := int64(1); id <= tc.classes; id++ {
				cells := make([]byte, tc.p.Len())
				text := make([]string, len(cells))
				for i := range cells {
					v := rng.IntN(32)
					cells[i] = byte(v)
					text[i] = strconv.Itoa(v + 1) // magic: the value; queens: the 1-based column
				}
				var packed []byte
				if tc.p.Kind == canon.Magic {
					for i := range cells {
						cells[i]++ // Pack25 takes the values, 1 up
					}
					packed = canon.Pack25((*[25]byte)(cells)).Bytes()
				} else {
					packed = canon.PackQueens(nil, cells)
				}
				orbit, props := 8, uint32(0)
				if tc.p.Kind == canon.Queens && id%7 == 0 {
					orbit = []int{1, 2, 4}[id%3]
				}
				var names []string
				if tc.p.Kind == canon.Magic && id%5 == 0 {
					for _, name := range canon.PropertyNames(canon.Magic) {
						if bit, _ := canon.ParseProperty(canon.Magic, name); rng.IntN(3) == 0 {
							props |= uint32(bit)
							names = append(names, name)
						}
					}
				}
				if tc.p.Kind == canon.Queens {
					names = []string{map[int]string{1: "rot90-symmetric", 2: "rot90-symmetric", 4: "rot180-only", 8: "asymmetric"}[orbit]}
				}
				members += int64(orbit)
				if err := w.AddClass(id, packed, orbit, props); err != nil {
					t.Fatal(err)
				}
				want[id] = strings.Join([]string{strconv.FormatInt(id, 10), strings.Join(text, " "), strconv.Itoa(orbit), strings.Join(names, ","), strconv.FormatUint(uint64(props), 10)}, "|")
			}
			rec := Record{Name: tc.p.String(), Kind: tc.p.Kind, N: tc.p.N, Storage: StorageClasses, Solutions: members, Classes: tc.classes, BuiltAtText: "now", SolverVersion: "test"}
			if err := w.Commit(rec); err != nil {
				t.Fatal(err)
			}
			_, view := puzzleTables(tc.p.String())
			rows, err := c.db.QueryContext(ctx, "SELECT * FROM "+view)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			if cols, _ := rows.Columns(); strings.Join(cols, ",") != "id,form,orbit,properties,props" {
				t.Errorf("columns %v", cols)
			}
			n := int64(0)
			for rows.Next() {
				var id, orbit, props int64
				var form, properties string
				if err := rows.Scan(&id, &form, &orbit, &properties, &props); err != nil {
					t.Fatal(err)
				}
				n++
				got := strings.Join([]string{strconv.FormatInt(id, 10), form, strconv.FormatInt(orbit, 10), properties, strconv.FormatInt(props, 10)}, "|")
				if id != n || got != want[id] {
					t.Fatalf("row %d: %s\nwant %s", n, got, want[n])
				}
			}
			if err := rows.Err(); err != nil || n != tc.classes {
				t.Errorf("%d rows, %v; want %d", n, err, tc.classes)
			}
			s, err := c.Content(ctx, tc.p, rec)
			if err != nil {
				t.Fatal(err)
			}
			if problems, err := s.CheckView(ctx); problems != nil || err != nil {
				t.Errorf("CheckView: %v, %v", problems, err)
			}
		})
	}
}
