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

func FuzzParsePartition(f *testing.F) {
	for _, s := range []string{"orbit", "symmetry", "cell:1,1", "cell:4,4", "row:1", "row:8", "cell:0,1", "row:", "class", "cell:1,1,1"} {
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
