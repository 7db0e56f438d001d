package query

import (
	"strconv"
	"strings"

	"solcat/canon"
)

// A Partition names the column a partitioned export splits its files by.
type Partition struct {
	Key string                 // the Hive-style folder key: orbit, symmetry, or a cell's name (canon.CellName: r1c1, row1)
	of  func(s Solution) int64 // the value of a solution
}

// ParsePartition reads --partition-by: orbit, symmetry, cell:R,C (magic
// squares: the cell's value) or row:R (queens: the 1-based column of the
// queen in row R), or a cell's column name (r1c1, row1, or the older c1_1
// and r1).
func ParsePartition(p canon.Puzzle, text string) (Partition, error) {
	what, arg, _ := strings.Cut(text, ":")
	row, col := 0, 0
	switch {
	case text == "orbit":
		return Partition{"orbit", func(s Solution) int64 { return int64(s.Orbit) }}, nil
	case text == "symmetry":
		return Partition{"symmetry", func(s Solution) int64 { return int64(s.Symmetry) }}, nil
	case what == "cell" && p.Kind == canon.Magic:
		c, err := parseCell(arg + "=1")
		if err != nil {
			break
		}
		row, col = c.Row, c.Col
	case what == "row" && p.Kind == canon.Queens:
		row, _ = strconv.Atoi(arg)
		col = 1
	default:
		var ok bool
		if row, col, ok = canon.ParseCellName(p.Kind, text); ok && p.Kind == canon.Queens {
			col = 1
		}
	}
	if row < 1 || row > p.N || col < 1 || col > p.N {
		return Partition{}, badFilter("partition", strconv.Quote(text), "use orbit, symmetry, cell:R,C (magic squares) or row:R (queens), or a cell's column name (r1c1, row1), within %s", p)
	}
	if p.Kind == canon.Queens {
		return Partition{canon.CellName(p, row-1), func(s Solution) int64 { return int64(s.Cells[row-1]) + 1 }}, nil
	}
	at := (row-1)*p.N + col - 1
	return Partition{canon.CellName(p, at), func(s Solution) int64 { return int64(s.Cells[at]) }}, nil
}

// Folder is the Hive-style folder of the partition a solution falls in,
// such as "r1c1=16" or "symmetry=rot90".
func (pt Partition) Folder(s Solution) string {
	v := pt.of(s)
	if pt.Key == "symmetry" {
		return "symmetry=" + canon.Symmetry(v).String()
	}
	return pt.Key + "=" + strconv.FormatInt(v, 10)
}
