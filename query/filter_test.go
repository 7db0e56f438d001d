package query

import (
	"errors"
	"fmt"
	"testing"

	"solcat/canon"
)

func TestParseCell(t *testing.T) {
	good := map[string]Cell{"1,1=1": {1, 1, 1}, "4,3=16": {4, 3, 16}, " 2 , 3 = 0 ": {2, 3, 0}}
	for in, want := range good {
		if got, err := ParseCell(in); err != nil || got != want {
			t.Errorf("ParseCell(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "1,1", "1=1", "1,1=", "a,1=1", "1,b=1", "1,1=c", "1,1,1=1", "1,1=1=1", "1;1=1"} {
		if c, err := ParseCell(in); !errors.Is(err, ErrFilter) {
			t.Errorf("ParseCell(%q) = %v, %v; want ErrFilter", in, c, err)
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
		c, err := ParseCell(s)
		if err != nil {
			if !errors.Is(err, ErrFilter) {
				t.Fatalf("%q: error %v does not wrap ErrFilter", s, err)
			}
			return
		}
		again, err := ParseCell(fmt.Sprintf("%d,%d=%d", c.Row, c.Col, c.Value))
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
