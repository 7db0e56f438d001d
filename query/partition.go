package query

import (
	"fmt"
	"strconv"
	"strings"

	"solcat/canon"
)

// A Partition names the column a partitioned export splits its files by.
type Partition struct {
	Key string                 // the Hive-style folder key: orbit, symmetry, r1c1 (magic), row1 (queens)
	of  func(s Solution) int64 // the value of a solution
}

// ParsePartition reads --partition-by: orbit, symmetry, cell:R,C (magic
// squares: the cell's value) or row:R (queens: the 1-based column of the
// queen in row R).
func ParsePartition(p canon.Puzzle, text string) (Partition, error) {
	what, arg, _ := strings.Cut(text, ":")
	switch {
	case text == "orbit":
		return Partition{"orbit", func(s Solution) int64 { return int64(s.Orbit) }}, nil
	case text == "symmetry":
		return Partition{"symmetry", func(s Solution) int64 { return int64(s.Symmetry) }}, nil
	case what == "cell" && p.Kind == canon.Magic:
		c, err := parseCell(arg + "=1")
		if err != nil || c.Row < 1 || c.Row > p.N || c.Col < 1 || c.Col > p.N {
			break
		}
		at := (c.Row-1)*p.N + c.Col - 1
		return Partition{fmt.Sprintf("r%dc%d", c.Row, c.Col), func(s Solution) int64 { return int64(s.Cells[at]) }}, nil
	case what == "row" && p.Kind == canon.Queens:
		r, err := strconv.Atoi(arg)
		if err != nil || r < 1 || r > p.N {
			break
		}
		return Partition{fmt.Sprintf("row%d", r), func(s Solution) int64 { return int64(s.Cells[r-1]) + 1 }}, nil
	}
	return Partition{}, badFilter("partition", strconv.Quote(text), "use orbit, symmetry, cell:R,C (magic squares) or row:R (queens) within %s", p)
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
