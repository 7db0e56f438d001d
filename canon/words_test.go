package canon

import (
	"strings"
	"testing"
)

func TestThousands(t *testing.T) {
	for _, tc := range []struct {
		v    int64
		want string
	}{{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {45647, "45,647"}, {100000, "100,000"}, {14772512, "14,772,512"},
		{-1234, "-1,234"}, {-999, "-999"}, {-9223372036854775808, "-9,223,372,036,854,775,808"}} {
		t.Run(tc.want, func(t *testing.T) {
			if got := Thousands(tc.v); got != tc.want {
				t.Errorf("Thousands(%d) = %q, want %q", tc.v, got, tc.want)
			}
		})
	}
}

func TestPlural(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		noun string
		want string
	}{
		{1, "solution", "1 solution"},
		{1, "class", "1 class"},
		{0, "class", "0 classes"},
		{4, "solution", "4 solutions"},
		{12, "class", "12 classes"},
		{2, "goroutine", "2 goroutines"},
		{1, "goroutine", "1 goroutine"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			if got := Plural(tc.n, tc.noun); got != tc.want {
				t.Errorf("Plural(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
			}
		})
	}
}

func TestCellNames(t *testing.T) {
	q8, m4 := Puzzle{Queens, 8}, Puzzle{Magic, 4}
	if got := strings.Join(CellNames(q8), " "); got != "row1 row2 row3 row4 row5 row6 row7 row8" {
		t.Errorf("queens:8: %s", got)
	}
	if got := strings.Join(CellNames(Puzzle{Magic, 3}), " "); got != "r1c1 r1c2 r1c3 r2c1 r2c2 r2c3 r3c1 r3c2 r3c3" {
		t.Errorf("magic:3: %s", got)
	}
	if got := CellName(m4, 16) + " " + CellName(q8, 8); got != "r5c1 row9" {
		t.Errorf("past the board: %s", got)
	}
	for _, tc := range []struct {
		kind     Kind
		name     string
		row, col int
		ok       bool
	}{
		{Queens, "row1", 1, 0, true},
		{Queens, "row12", 12, 0, true},
		{Queens, "r3", 3, 0, true}, // Parquet's earlier name
		{Queens, "q5", 5, 0, true}, // the web's earlier name
		{Queens, "row01", 0, 0, false},
		{Queens, "row0", 0, 0, true}, // off the board, for the caller to say
		{Queens, "row", 0, 0, false},
		{Queens, "r1c1", 0, 0, false},
		{Queens, "Row1", 0, 0, false},
		{Magic, "r1c1", 1, 1, true},
		{Magic, "r4c12", 4, 12, true},
		{Magic, "c2_3", 2, 3, true}, // the earlier name
		{Magic, "r1", 0, 0, false},
		{Magic, "row1", 0, 0, false},
		{Magic, "r1c", 0, 0, false},
		{Magic, "c1_01", 0, 0, false},
		{Magic, "class", 0, 0, false},
		{Magic, "r-1c1", -1, 1, true},
		{Magic, "r+1c1", 0, 0, false},
	} {
		t.Run(string(tc.kind)+" "+tc.name, func(t *testing.T) {
			row, col, ok := ParseCellName(tc.kind, tc.name)
			if ok != tc.ok || ok && (row != tc.row || col != tc.col) {
				t.Errorf("ParseCellName(%s, %q) = %d, %d, %v; want %d, %d, %v", tc.kind, tc.name, row, col, ok, tc.row, tc.col, tc.ok)
			}
		})
	}
}
