package records

import (
	"fmt"
	"io"
	"strconv"

	"solcat/canon"
	"solcat/query/draw"
)

// Heatmap is every cell of a puzzle by its values, over the solutions that
// match a filter: counts[cell][v] as query's Heatmap gives them.
type Heatmap struct {
	Puzzle  canon.Puzzle
	Filter  string
	Counts  [][]int64
	Headers bool
	ASCII   bool // shades of ASCII characters in text
}

// Matching is how many solutions the map is taken over: each cell holds
// one value in each (queens: the first row holds one queen).
func (h Heatmap) Matching() int64 {
	var n int64
	if h.Puzzle.Kind == canon.Queens {
		for _, c := range h.Counts[:h.Puzzle.N] {
			n += c[1]
		}
		return n
	}
	for _, k := range h.Counts[0][1:] {
		n += k
	}
	return n
}

// Grid is the map as a matrix to draw, with its labels: for queens the
// board, a count a square; for magic squares a row a cell, a column a
// value.
func (h Heatmap) Grid() (rows, cols []string, grid [][]int64) {
	n := h.Puzzle.N
	if h.Puzzle.Kind == canon.Queens {
		for i := 1; i <= n; i++ {
			rows = append(rows, strconv.Itoa(i))
		}
		grid = make([][]int64, n)
		for r := range grid {
			grid[r] = make([]int64, n)
			for c := range grid[r] {
				grid[r][c] = h.Counts[r*n+c][1]
			}
		}
		return rows, rows, grid
	}
	for x := 0; x < n*n; x++ {
		rows = append(rows, fmt.Sprintf("%d,%d", x/n+1, x%n+1))
		cols = append(cols, strconv.Itoa(x+1))
		grid = append(grid, h.Counts[x][1:])
	}
	return rows, cols, grid
}

// Object is the map as JSON, the same in the CLI and on the web: for
// queens the board of counts; for magic squares one object per cell with
// the count of each value 1..n² in it.
func (h Heatmap) Object() Object {
	o := Obj("puzzle", h.Puzzle.String(), "filter", h.Filter, "matching", h.Matching())
	_, _, grid := h.Grid()
	if h.Puzzle.Kind == canon.Queens {
		return append(o, Obj("queens", grid)...)
	}
	n := h.Puzzle.N
	cells := make([]Object, n*n)
	for x := range cells {
		cells[x] = Obj("row", x/n+1, "col", x%n+1, "counts", grid[x])
	}
	return append(o, Obj("cells", cells)...)
}

// WriteHeatmap writes a heat map: a JSON document; a line or row per cell
// and value (queens: per square); or a grid of text, shaded.
func WriteHeatmap(w io.Writer, format Format, h Heatmap) error {
	switch format {
	case JSON:
		return WriteOne(w, format, true, h.Object())
	case JSONL, CSV:
		p := NewPrinter(w, format, h.Headers)
		n := h.Puzzle.N
		for x, c := range h.Counts {
			for v := 1; v < len(c); v++ {
				o := Obj("puzzle", h.Puzzle.String(), "row", x/n+1, "col", x%n+1)
				if h.Puzzle.Kind == canon.Magic {
					o = append(o, Obj("value", v)...)
				}
				p.Write(append(o, Obj("solutions", c[v])...))
			}
		}
		return p.Close()
	}
	if h.Headers {
		what := "solutions with a queen on each square (row, column)"
		if h.Puzzle.Kind == canon.Magic {
			what = "squares with each value (column) in each cell (row)"
		}
		if _, err := fmt.Fprintf(w, "%s by cell (%s): %s\n", h.Puzzle, canon.Plural(h.Matching(), "matching solution"), what); err != nil {
			return err
		}
	}
	rows, cols, grid := h.Grid()
	_, err := io.WriteString(w, draw.TextHeat(rows, cols, grid, h.ASCII))
	return err
}
