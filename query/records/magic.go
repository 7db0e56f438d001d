package records

import (
	"fmt"
	"strconv"
	"strings"

	"solcat/canon"
)

// ClassesHeading is the first line of classes' text: its columns, and for
// magic squares the magic constant every line sums to.
func ClassesHeading(p canon.Puzzle) string {
	h := p.String() + ": class, orbit, matching members, canonical form, properties"
	if p.Kind == canon.Magic {
		h += fmt.Sprintf(" (every row, column and diagonal sums to %d, the magic constant)", canon.MagicConstant(p.N))
	}
	return h
}

// LineSumsText is a magic square's line sums, as summed from its cells,
// and its magic constant, in one line; "" for queens.
func LineSumsText(p canon.Puzzle, cells []byte) string {
	if p.Kind != canon.Magic {
		return ""
	}
	s := canon.SumLines(p.N, cells)
	ints := func(v []int) string {
		t := make([]string, len(v))
		for i, x := range v {
			t[i] = strconv.Itoa(x)
		}
		return strings.Join(t, " ")
	}
	return fmt.Sprintf("line sums: rows %s; columns %s; diagonals %d %d; magic constant %d", ints(s.Rows), ints(s.Cols), s.Diagonal, s.Anti, canon.MagicConstant(p.N))
}
