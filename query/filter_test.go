package query

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"solcat/canon"
)

func TestParseCell(t *testing.T) {
	good := map[string]Cell{"1,1=1": {1, 1, 1}, "4,3=16": {4, 3, 16}, " 2 , 3 = 0 ": {2, 3, 0}}
	for in, want := range good {
		if got, err := parseCell(in); err != nil || got != want {
			t.Errorf("parseCell(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1,1", "1=1", "1,1=", "a,1=1", "1,b=1", "1,1=c", "1,1,1=1", "1,1=1=1", "1;1=1"} {
		if c, err := parseCell(in); !errors.Is(err, ErrFilter) {
			t.Errorf("parseCell(%q) = %v, %v; want ErrFilter", in, c, err)
		}
	}
}

func TestValidate(t *testing.T) {
	magic4 := canon.Puzzle{Kind: canon.Magic, N: 4}
	queens8 := canon.Puzzle{Kind: canon.Queens, N: 8}
	cases := []struct {
		p  canon.Puzzle
		f  Filter
		ok bool
	}{
		{magic4, Filter{Cells: []Cell{{1, 1, 1}}}, true},
		{magic4, Filter{Cells: []Cell{{4, 4, 16}}}, true},
		{magic4, Filter{Cells: []Cell{{5, 1, 1}}}, false},
		{magic4, Filter{Cells: []Cell{{1, 0, 1}}}, false},
		{magic4, Filter{Cells: []Cell{{1, 1, 17}}}, false},
		{magic4, Filter{Cells: []Cell{{1, 1, 0}}}, false},
		{queens8, Filter{Cells: []Cell{{8, 8, 1}, {1, 1, 0}}}, true},
		{queens8, Filter{Cells: []Cell{{1, 1, 2}}}, false},
		{queens8, Filter{Orbit: 4}, true},
		{queens8, Filter{Orbit: 3}, false},
		{queens8, Filter{Class: -1}, false},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s %+v", tc.p, tc.f), func(t *testing.T) {
			err := tc.f.Validate(tc.p)
			if (err == nil) != tc.ok {
				t.Errorf("Validate = %v, want ok=%v", err, tc.ok)
			}
		})
	}
}

func TestSplitPrefix(t *testing.T) {
	conds := []byteCondition{{Pos: 1, Value: 5, Equal: true}, {Pos: 0, Value: 3, Equal: true}, {Pos: 2, Value: 7, Equal: false}, {Pos: 3, Value: 1, Equal: true}}
	prefix, rest := splitPrefix(conds)
	if string(prefix) != string([]byte{3, 5}) || len(rest) != 2 {
		t.Errorf("prefix %v rest %v", prefix, rest)
	}
	if next, ok := successor([]byte{3, 0xff}); !ok || string(next) != string([]byte{4}) {
		t.Errorf("successor = %v, %v", next, ok)
	}
}

func FuzzParseCell(f *testing.F) {
	for _, s := range []string{"1,1=1", "4,4=16", "1,1", "a,b=c", "-1,2=3", "1,1=99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := parseCell(s)
		if err != nil {
			if !errors.Is(err, ErrFilter) {
				t.Fatalf("%q: error %v does not wrap ErrFilter", s, err)
			}
			return
		}
		again, err := parseCell(fmt.Sprintf("%d,%d=%d", c.Row, c.Col, c.Value))
		if err != nil || again != c {
			t.Fatalf("%q -> %v does not round-trip: %v, %v", s, c, again, err)
		}
		for _, p := range []canon.Puzzle{{Kind: canon.Magic, N: 4}, {Kind: canon.Queens, N: 8}} {
			f := Filter{Cells: []Cell{c}}
			if f.Validate(p) == nil {
				// A valid cell must address a real byte of the stored solution.
				for _, bc := range f.byteConditions(p) {
					if bc.Pos < 0 || bc.Pos >= p.Len() {
						t.Fatalf("%q on %s: byte position %d", s, p, bc.Pos)
					}
				}
			}
		}
	})
}

func TestParsePattern(t *testing.T) {
	magic4 := canon.Puzzle{Kind: canon.Magic, N: 4}
	queens6 := canon.Puzzle{Kind: canon.Queens, N: 6}
	cells, err := parsePattern(magic4, "1 . . . / . . . . / . . 7 . / . . . 16")
	if err != nil || fmt.Sprint(cells) != "[{1 1 1} {3 3 7} {4 4 16}]" {
		t.Errorf("magic pattern: %v, %v", cells, err)
	}
	cells, err = parsePattern(queens6, "2 4 . . . 5")
	if err != nil || fmt.Sprint(cells) != "[{1 2 1} {2 4 1} {6 5 1}]" {
		t.Errorf("queens pattern: %v, %v", cells, err)
	}
	for _, bad := range []struct {
		p    canon.Puzzle
		text string
	}{
		{magic4, ""}, {magic4, "1 . . ."}, {magic4, "1 . . . / . . . . / . . . . / . . ."},
		{magic4, "0 . . . / . . . . / . . . . / . . . ."}, {magic4, "1 . . . / 1 . . . / . . . . / . . . ."},
		{queens6, "1 2 3"}, {queens6, "1 . . . . 1"}, {queens6, "0 . . . . ."}, {queens6, "a . . . . ."},
	} {
		if _, err := parsePattern(bad.p, bad.text); !errors.Is(err, ErrFilter) {
			t.Errorf("parsePattern(%s, %q) = %v, want ErrFilter", bad.p, bad.text, err)
		}
	}
}

func FuzzParsePattern(f *testing.F) {
	for _, s := range []string{"1 . . . / . . . . / . . . . / . . . 16", "2 4 . . . .", ". . . . . . . .", "1 / 2", "99 . ."} {
		f.Add(s)
	}
	puzzles := []canon.Puzzle{{Kind: canon.Magic, N: 4}, {Kind: canon.Magic, N: 3}, {Kind: canon.Queens, N: 6}, {Kind: canon.Queens, N: 8}}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range puzzles {
			cells, err := parsePattern(p, s)
			if err != nil {
				if !errors.Is(err, ErrFilter) {
					t.Fatalf("%s %q: error %v does not wrap ErrFilter", p, s, err)
				}
				continue
			}
			if err := (Filter{Cells: cells}).Validate(p); err != nil {
				t.Fatalf("%s %q: parsed cells %v fail validation: %v", p, s, cells, err)
			}
		}
	})
}

func FuzzParseStatsBy(f *testing.F) {
	for _, s := range []string{"cell:1,1", "cell:3,3", "row:1", "orbit", "group", "prop:pandiagonal", "prop:dudeney-VI", "prop:", "cell:9,9", "row:x", ":"} {
		f.Add(s)
	}
	puzzles := []canon.Puzzle{{Kind: canon.Magic, N: 4}, {Kind: canon.Magic, N: 5}, {Kind: canon.Queens, N: 8}}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range puzzles {
			by, err := ParseStatsBy(p, s)
			if err != nil {
				if !errors.Is(err, ErrFilter) {
					t.Fatalf("%s %q: error %v does not wrap ErrFilter", p, s, err)
				}
				continue
			}
			switch by.Kind {
			case ByCell:
				if by.Row < 1 || by.Row > p.N || by.Col < 1 || by.Col > p.N {
					t.Fatalf("%s %q: cell %d,%d off the board", p, s, by.Row, by.Col)
				}
			case ByRow:
				if p.Kind != canon.Queens || by.Row < 1 || by.Row > p.N {
					t.Fatalf("%s %q: row %d", p, s, by.Row)
				}
			case ByProp:
				if by.Prop == 0 {
					t.Fatalf("%s %q: no property", p, s)
				}
			case ByOrbit:
			case ByGroup:
				if p.Kind != canon.Magic || p.N != 4 {
					t.Fatalf("%s %q: groups are for magic:4", p, s)
				}
			default:
				t.Fatalf("%s %q: unknown statistic %v", p, s, by.Kind)
			}
		}
	})
}

// TestParsePartition checks the names --partition-by takes, the old
// column names among them, and the folder key each gives: a cell's column
// name, as in CSV and Parquet.
func TestParsePartition(t *testing.T) {
	m4, q8 := canon.Puzzle{Kind: canon.Magic, N: 4}, canon.Puzzle{Kind: canon.Queens, N: 8}
	sol := Solution{Cells: []byte{3, 7, 0, 5, 2, 4, 6, 1, 9, 10, 11, 12, 13, 14, 15, 16}, Orbit: 8, Symmetry: 5}
	for _, tc := range []struct {
		p      canon.Puzzle
		text   string
		folder string // "" for refused
	}{
		{m4, "orbit", "orbit=8"},
		{m4, "symmetry", "symmetry=rot90"},
		{m4, "cell:1,2", "r1c2=7"},
		{m4, "r1c2", "r1c2=7"},
		{m4, "c1_2", "r1c2=7"},
		{m4, "cell:4,4", "r4c4=16"},
		{m4, "cell:5,1", ""},
		{m4, "r5c1", ""},
		{m4, "row:1", ""},
		{m4, "row1", ""},
		{q8, "row:2", "row2=8"},
		{q8, "row2", "row2=8"},
		{q8, "r2", "row2=8"},
		{q8, "row:9", ""},
		{q8, "row9", ""},
		{q8, "cell:1,1", ""},
		{q8, "r1c1", ""},
		{q8, "class", ""},
	} {
		t.Run(tc.p.String()+" "+tc.text, func(t *testing.T) {
			pt, err := ParsePartition(tc.p, tc.text)
			switch {
			case tc.folder == "" && err == nil:
				t.Errorf("taken, folder %q", pt.Folder(sol))
			case tc.folder != "" && err != nil:
				t.Errorf("refused: %v", err)
			case err == nil && pt.Folder(sol) != tc.folder:
				t.Errorf("folder %q, want %q", pt.Folder(sol), tc.folder)
			}
		})
	}
}

func FuzzParsePartition(f *testing.F) {
	for _, s := range []string{"orbit", "symmetry", "cell:1,1", "cell:4,4", "row:1", "row:8", "cell:0,1", "row:", "class", "cell:1,1,1", "r1c1", "row3", "c2_2", "r3"} {
		f.Add(s)
	}
	puzzles := []canon.Puzzle{{Kind: canon.Magic, N: 4}, {Kind: canon.Queens, N: 8}}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range puzzles {
			pt, err := ParsePartition(p, s)
			if err != nil {
				if !errors.Is(err, ErrFilter) {
					t.Fatalf("%s %q: error %v does not wrap ErrFilter", p, s, err)
				}
				continue
			}
			// Any solution of the puzzle has a folder, named KEY=VALUE.
			sol := Solution{Cells: make([]byte, p.Len()), Orbit: 8, Symmetry: 5}
			if folder := pt.Folder(sol); !strings.HasPrefix(folder, pt.Key+"=") || strings.ContainsAny(folder, "/\\\\") {
				t.Fatalf("%s %q: folder %q", p, s, folder)
			}
		}
	})
}

// TestImpossible checks the reasons a filter can match nothing, and that
// no filter a solution meets is called impossible: every set of true
// conditions (queens or empty squares, values) of every solution of
// queens:5 and magic:3.
func TestImpossible(t *testing.T) {
	queens8 := canon.Puzzle{Kind: canon.Queens, N: 8}
	magic3 := canon.Puzzle{Kind: canon.Magic, N: 3}
	pattern := func(p canon.Puzzle, text string) []Cell {
		cells, err := parsePattern(p, text)
		if err != nil {
			t.Fatal(err)
		}
		return cells
	}
	cases := []struct {
		name string
		p    canon.Puzzle
		f    Filter
		want string // "" : it may match
	}{
		{"queens diagonal", queens8, Filter{Cells: pattern(queens8, "1 2 3 4 5 6 7 8")}, "no two queens may share a diagonal, and the queens asked at 1,1 and 2,2 do"},
		{"queens anti-diagonal", queens8, Filter{Cells: []Cell{{3, 5, 1}, {1, 7, 1}}}, "no two queens may share an anti-diagonal, and the queens asked at 1,7 and 3,5 do"},
		{"queens column", queens8, Filter{Cells: []Cell{{1, 3, 1}, {4, 3, 1}}, UpToSymmetry: true}, "no two queens may share a column, and the queens asked at 1,3 and 4,3 do"},
		{"queens row", queens8, Filter{Cells: []Cell{{2, 1, 1}, {2, 8, 1}}}, "no two queens may share a row, and the queens asked at 2,1 and 2,8 do"},
		{"queens one square twice", queens8, Filter{Cells: []Cell{{1, 1, 1}, {1, 1, 0}}}, "cell 1,1 is asked to hold both 1 and 0"},
		{"queens a row emptied", queens8, Filter{Cells: []Cell{{3, 1, 0}, {3, 2, 0}, {3, 3, 0}, {3, 4, 0}, {3, 5, 0}, {3, 6, 0}, {3, 7, 0}, {3, 8, 0}}}, "no square of row 3 is left for its queen"},
		{"queens possible", queens8, Filter{Cells: pattern(queens8, "1 5 . . . . . .")}, ""},
		{"queens same condition twice", queens8, Filter{Cells: []Cell{{1, 1, 1}, {1, 1, 1}}}, ""},
		{"magic value twice", magic3, Filter{Cells: []Cell{{1, 1, 2}, {3, 3, 2}}}, "a magic square holds each value once, and 2 is asked at 1,1 and 3,3"},
		{"magic row sum", magic3, Filter{Cells: pattern(magic3, "1 2 3 / . . . / . . .")}, "row 1 as asked sums to 6, and every line of magic:3 sums to 15"},
		{"magic column sum", magic3, Filter{Cells: pattern(magic3, "1 . . / 2 . . / 3 . .")}, "column 1 as asked sums to 6"},
		{"magic anti-diagonal sum", magic3, Filter{Cells: pattern(magic3, ". . 1 / . 2 . / 3 . .")}, "the anti-diagonal as asked sums to 6"},
		{"magic possible", magic3, Filter{Cells: pattern(magic3, "2 7 6 / . . . / . . .")}, ""},
		{"off the board: Validate's to say", magic3, Filter{Cells: []Cell{{4, 1, 1}}}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.f.Impossible(tc.p); got != tc.want && (tc.want == "" || !strings.HasPrefix(got, tc.want)) {
				t.Errorf("Impossible = %q, want %q", got, tc.want)
			}
		})
	}
	for _, p := range []canon.Puzzle{{Kind: canon.Queens, N: 5}, {Kind: canon.Magic, N: 3}} {
		t.Run(p.String()+" solutions", func(t *testing.T) {
			sols := bruteForce(p)
			if len(sols) == 0 {
				t.Fatal("no solutions found")
			}
			for _, sol := range sols {
				var met []Cell
				for i, v := range sol {
					if p.Kind == canon.Queens {
						met = append(met, Cell{i + 1, int(v) + 1, 1}, Cell{i + 1, (int(v)+1)%p.N + 1, 0})
					} else {
						met = append(met, Cell{i/p.N + 1, i%p.N + 1, int(v)})
					}
				}
				for mask := 1; mask < 1<<len(met); mask += 1 + mask%7 { // a spread of subsets
					var f Filter
					for i, c := range met {
						if mask&(1<<i) != 0 {
							f.Cells = append(f.Cells, c)
						}
					}
					if why := f.Impossible(p); why != "" {
						t.Fatalf("%v meets %+v, yet Impossible says %q", sol, f.Cells, why)
					}
				}
			}
		})
	}
}

// bruteForce lists the solutions of a small puzzle by trying every
// permutation.
func bruteForce(p canon.Puzzle) [][]byte {
	var out [][]byte
	vals := make([]byte, p.Len())
	for i := range vals {
		vals[i] = byte(i)
		if p.Kind == canon.Magic {
			vals[i]++
		}
	}
	var permute func(k int)
	permute = func(k int) {
		if k == len(vals) {
			if p.Check(vals) == nil {
				out = append(out, append([]byte(nil), vals...))
			}
			return
		}
		for i := k; i < len(vals); i++ {
			vals[k], vals[i] = vals[i], vals[k]
			permute(k + 1)
			vals[k], vals[i] = vals[i], vals[k]
		}
	}
	permute(0)
	return out
}
