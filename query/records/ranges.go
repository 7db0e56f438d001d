package records

import (
	"context"
	"io"
	"slices"

	"solcat/canon"
	"solcat/query"
)

// RangePart is one puzzle of a range export (queens:4-6): its bound
// puzzle and its planned question, all asking the same.
type RangePart struct {
	T    *query.BoundPuzzle
	Plan *query.Plan
}

// StreamRange writes the rows of parts, puzzle after puzzle, as one table
// with a puzzle column first. The cell columns are those of the largest
// puzzle (the last): a smaller puzzle's rows leave the others empty in CSV
// and null in Parquet; JSON and JSON lines carry each row's own cells.
// Parquet is written in the columns layout only (d.Cells).
func StreamRange(ctx context.Context, parts []RangePart, w io.Writer, format Format, headers bool, d Dataset, tick func(id, last int64)) (rows int64, err error) {
	if tick == nil {
		tick = func(int64, int64) {}
	}
	classes := parts[0].Plan.Question.Ask == query.AskClasses
	widest := parts[len(parts)-1].T.Puzzle
	var write func(part int, o rangeRow) error
	var close func() error
	if format == Parquet {
		rw := newRangeParquet(w, d, parts, classes)
		write, close = rw.write, rw.f.close
	} else {
		flat := format == CSV
		cellNames := Columns(widest, classes, CSV, "")
		pr := NewPrinter(w, format, headers).ColumnNames(append([]string{"puzzle"}, cellNames...))
		cellNames = cellNames[len(cellNames)-widest.Len():]
		write = func(part int, r rangeRow) error {
			p := parts[part].T.Puzzle
			var o Object
			if classes {
				o = ClassObject(p, r.class, flat)
			} else {
				o = SolutionObject(p, r.sol, flat)
			}
			out := Object{{"puzzle", p.String()}}
			if !flat {
				return pr.Write(append(out, o...))
			}
			// CSV: the widest puzzle's cell columns, in its order.
			cells := o[len(o)-p.Len():]
			out = append(out, o[:len(o)-p.Len()]...)
			for _, name := range cellNames {
				var v any // empty
				if i := slices.IndexFunc(cells, func(f Field) bool { return f.Name == name }); i >= 0 {
					v = cells[i].Value
				}
				out = append(out, Field{name, v})
			}
			return pr.Write(out)
		}
		close = pr.Close
	}
	for i, part := range parts {
		t := part.T
		var to query.Sink
		if classes {
			to.Class = func(c query.Class) error {
				tick(c.ID, t.Record.Classes)
				return write(i, rangeRow{class: c})
			}
		} else {
			to.Solution = func(s query.Solution) error {
				tick(s.ID, t.Record.Solutions)
				return write(i, rangeRow{sol: s})
			}
		}
		n, err := t.Stream(ctx, part.Plan, to, query.Pause{})
		rows += n
		if err != nil {
			return rows, err
		}
	}
	return rows, close()
}

type rangeRow struct {
	sol   query.Solution
	class query.Class
}

// rangeParquet writes a range's rows in the flat layout: puzzle, the lead
// columns, props, then the largest puzzle's cells, null where a smaller
// puzzle has none.
type rangeParquet struct {
	f       *flatFile
	rows    *flatRows // the props and symmetry dictionaries
	puzzle  []uint16  // each part's index in the puzzle dictionary
	at      [][]int   // each part's cells' columns among the cell columns
	classes bool
	lead    int // the columns before props
}

func newRangeParquet(out io.Writer, d Dataset, parts []RangePart, classes bool) *rangeParquet {
	widest := parts[len(parts)-1].T.Puzzle
	r := &rangeParquet{classes: classes}
	var names []string
	for _, part := range parts {
		names = append(names, part.T.Puzzle.String())
	}
	sorted, at := sortedDict(names)
	for _, n := range names {
		r.puzzle = append(r.puzzle, at[n])
	}
	lead := []flatColumn{{name: "puzzle", strs: sorted}}
	rowsName := "solutions"
	if classes {
		rowsName = "classes"
		lead = append(lead, flatClassLead()...)
	} else {
		lead = append(lead, flatSolutionLead()...)
	}
	r.lead = len(lead)
	d.Puzzle = widest
	r.rows = newFlatRows(io.Discard, d, rowsName, lead)
	cols := r.rows.f.cols
	// Which of the widest puzzle's cells each part has.
	for _, part := range parts {
		p := part.T.Puzzle
		var idx []int
		for i := range p.Len() {
			k := i
			if p.Kind == canon.Magic {
				k = i/p.N*widest.N + i%p.N
			}
			idx = append(idx, k)
		}
		r.at = append(r.at, idx)
	}
	for k := range widest.Len() {
		for _, idx := range r.at {
			if !slices.Contains(idx, k) {
				cols[r.lead+1+k].optional = true
			}
		}
	}
	var colNames []string
	for _, c := range cols {
		colNames = append(colNames, c.name)
	}
	r.f = newFlatFile(out, d.schemaName(rowsName), d.createdBy(), d.metadata(rowsName, colNames), cols)
	return r
}

func (r *rangeParquet) write(part int, row rangeRow) error {
	c := r.f.row().cols
	c[0].idx = append(c[0].idx, r.puzzle[part])
	var cells []byte
	if r.classes {
		r.rows.classLead(c[1:], row.class)
		r.rows.addProps(&c[r.lead], row.class.Props)
		cells = row.class.Canonical
	} else {
		r.rows.solutionLead(c[1:], row.sol)
		r.rows.addProps(&c[r.lead], row.sol.Props)
		cells = row.sol.Cells
	}
	shift := uint16(1)
	if r.rows.queens {
		shift = 0
	}
	cellCols := c[r.lead+1:]
	present := make([]bool, len(cellCols))
	for i, v := range cells {
		k := r.at[part][i]
		cellCols[k].idx = append(cellCols[k].idx, uint16(v)-shift)
		present[k] = true
	}
	for k, col := range r.f.cols[r.lead+1:] {
		if col.optional {
			def := uint16(0)
			if present[k] {
				def = 1
			}
			cellCols[k].defs = append(cellCols[k].defs, def)
		}
	}
	return r.f.added()
}
