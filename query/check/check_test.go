package check

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"

	"solcat/canon"
	"solcat/query/records"
)

// FuzzCheckParse feeds Parse anything: it never panics, an error is a
// *ReadError, and what it reads is a puzzle of the sizes it allows with
// entries at lines of the input; judging those entries never panics, a
// right one obeys the rules, and check's own JSON lines of the report read
// back as the same entries and total.
func FuzzCheckParse(f *testing.F) {
	for _, seed := range []string{
		"2 4 6 1 3 5\n3 6 2 5 1 4\n4 1 5 2 6 3\n4\n",
		"2 7 6\n9 5 1\n4 3 8\n\n2 7 6\n9 5 1\n4 8 3\n",
		"16 3 2 13 5 10 11 8 9 6 7 12 4 15 14 1\n",
		"id,class,orbit,symmetry,props,row1,row2,row3,row4\n1,1,2,identity,rot90-symmetric,2,4,1,3\n",
		"id,class,orbit,symmetry,props,r1c1,r1c2,r2c1,r2c2\n1,1,1,identity,,1,2,3,4\n",
		"[\n  {\"id\": 1, \"queens\": [2, 4, 1, 3]}\n]\n",
		"{\"grid\": [[2, 7, 6], [9, 5, 1], [4, 3, 8]]}\n{\"total\": 8}\n",
		"{\"queens\": [1], \"puzzle\": \"queens:1\"}",
		"1\n1\n",
		"1,2,3\n",
		"",
	} {
		f.Add([]byte(seed), "")
		f.Add([]byte(seed), "magic")
		f.Add([]byte(seed), "queens:4")
	}
	f.Fuzz(func(t *testing.T, data []byte, puzzle string) {
		hint, err := ParseHint(puzzle)
		if err != nil {
			hint = Hint{}
		}
		in, err := Parse(data, hint)
		if err != nil {
			var re *ReadError
			if !errors.As(err, &re) || !errors.Is(err, ErrUnreadable) {
				t.Fatalf("error %v (%T) is not a *ReadError", err, err)
			}
			return
		}
		p := in.Puzzle
		limit := canon.MaxN
		if p.Kind == canon.Magic {
			limit = MaxMagic
		}
		if p.N < 1 || p.N > limit || (hint.Kind != "" && p.Kind != hint.Kind) || (hint.N != 0 && p.N != hint.N) {
			t.Fatalf("read as %v with hint %+v", p, hint)
		}
		lines := bytes.Count(data, []byte("\n")) + 1
		for _, e := range in.Entries {
			if e.Line < 1 || e.Line > lines {
				t.Fatalf("entry at line %d of %d", e.Line, lines)
			}
		}
		rep, err := Run(context.Background(), Store{}, in)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rep.Results {
			if r.Valid() && p.Check(r.Cells) != nil {
				t.Fatalf("%v judged right but breaks the rules: %v", r.Entry.Numbers, p.Check(r.Cells))
			}
		}
		var out bytes.Buffer
		if err := Write(&out, records.JSONL, true, rep); err != nil {
			t.Fatal(err)
		}
		again, err := Parse(out.Bytes(), Hint{Kind: p.Kind, N: p.N})
		if err != nil {
			t.Fatalf("check's own output does not read back: %v\n%s", err, out.String())
		}
		if len(again.Entries) != len(in.Entries) || (again.Total == nil) != (in.Total == nil) || in.Total != nil && again.Total.Value != in.Total.Value {
			t.Fatalf("read back %d entries (total %v), want %d (total %v)", len(again.Entries), again.Total, len(in.Entries), in.Total)
		}
		for i, e := range in.Entries {
			if !slices.Equal(e.Numbers, again.Entries[i].Numbers) {
				t.Fatalf("entry %d read back as %v, was %v", i, again.Entries[i].Numbers, e.Numbers)
			}
		}
	})
}

// TestForms checks what each form reads as: the puzzle it settles on,
// the entries' lines and numbers, the total.
func TestForms(t *testing.T) {
	cases := []struct {
		name   string
		input  string
		hint   Hint
		puzzle string
		form   Form
		lines  []int
		total  int64 // -1: none
	}{
		{"usaco answer", "2 4 6 1 3 5\n3 6 2 5 1 4\n4 1 5 2 6 3\n4\n", Hint{}, "queens:6", Lines, []int{1, 2, 3}, 4},
		{"queens lines, blank lines", "\n2 4 1 3\n\n3 1 4 2\n", Hint{}, "queens:4", Lines, []int{2, 4}, -1},
		{"one number", "1\n", Hint{}, "queens:1", Lines, []int{1}, -1},
		{"magic rows", "2 7 6\n9 5 1\n4 3 8\n", Hint{}, "magic:3", Lines, []int{1}, -1},
		{"magic rows and total", "2 7 6\n9 5 1\n4 3 8\n8\n", Hint{}, "magic:3", Lines, []int{1}, 8},
		{"two squares in a run", "2 7 6\n9 5 1\n4 3 8\n2 9 4\n7 5 3\n6 1 8\n", Hint{}, "magic:3", Lines, []int{1, 4}, -1},
		{"a flat square is queens unless named", "2 7 6 9 5 1 4 3 8\n", Hint{}, "queens:9", Lines, []int{1}, -1},
		{"a flat square, named", "2 7 6 9 5 1 4 3 8\n", Hint{Kind: canon.Magic}, "magic:3", Lines, []int{1}, -1},
		{"csv header", "id,class,orbit,symmetry,props,row1,row2,row3,row4\n1,1,2,identity,rot90-symmetric,2,4,1,3\n2,1,2,rot90,rot90-symmetric,3,1,4,2\n", Hint{}, "queens:4", CSV, []int{2, 3}, -1},
		{"csv magic", "class,orbit,matching,props,r1c1,r1c2,r1c3,r2c1,r2c2,r2c3,r3c1,r3c2,r3c3\n1,8,8,associative self-complementary,2,7,6,9,5,1,4,3,8\n", Hint{}, "magic:3", CSV, []int{2}, -1},
		{"json document", "[\n  {\n    \"id\": 1,\n    \"queens\": [2, 4, 1, 3]\n  },\n  {\n    \"id\": 2,\n    \"queens\": [3, 1, 4, 2]\n  }\n]\n", Hint{}, "queens:4", JSON, []int{2, 6}, -1},
		{"json lines", "{\"grid\":[[2,7,6],[9,5,1],[4,3,8]]}\n\n{\"grid\":[[2,9,4],[7,5,3],[6,1,8]]}\n{\"total\":8}\n", Hint{}, "magic:3", JSON, []int{1, 3}, 8},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			in, err := Parse([]byte(tc.input), tc.hint)
			if err != nil {
				t.Fatal(err)
			}
			var lines []int
			for _, e := range in.Entries {
				lines = append(lines, e.Line)
			}
			total := int64(-1)
			if in.Total != nil {
				total = in.Total.Value
			}
			if in.Puzzle.String() != tc.puzzle || in.Form != tc.form || !slices.Equal(lines, tc.lines) || total != tc.total {
				t.Errorf("read %s %s, lines %v, total %d; want %s %s, lines %v, total %d", in.Puzzle, in.Form, lines, total, tc.puzzle, tc.form, tc.lines, tc.total)
			}
		})
	}
}
