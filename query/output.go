package query

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"solcat/canon"
	"solcat/catalog"
	"solcat/query/verify"
)

// Format is an output format.
type Format string

const (
	Text  Format = "text"  // for people; solutions as in USACO: 1-based numbers separated by spaces
	JSON  Format = "json"  // one JSON document
	JSONL Format = "jsonl" // one JSON object per line
	CSV   Format = "csv"   // a header row, then one row per item
)

// Cells renders stored cells for a person: a magic square's values row by
// row, or the 1-based column of the queen in each row, separated by spaces.
func Cells(p canon.Puzzle, cells []byte) string {
	var b strings.Builder
	for i, v := range cells {
		if i > 0 {
			b.WriteByte(' ')
		}
		if p.Kind == canon.Queens {
			v++
		}
		b.WriteString(strconv.Itoa(int(v)))
	}
	return b.String()
}

// cellFields are a solution's (or canonical form's) cells as fields: for
// JSON one field, "grid" (a magic square's rows) or "queens" (the 1-based
// column of each row's queen); flat (CSV), one field per cell, r1c1..rNcN
// or row1..rowN.
func cellFields(p canon.Puzzle, cells []byte, flat bool) []Field {
	if p.Kind == canon.Queens {
		cols := make([]int, len(cells))
		for i, c := range cells {
			cols[i] = int(c) + 1
		}
		if !flat {
			return []Field{{"queens", cols}}
		}
		out := make([]Field, len(cols))
		for r, c := range cols {
			out[r] = Field{"row" + strconv.Itoa(r+1), c}
		}
		return out
	}
	if flat {
		out := make([]Field, len(cells))
		for i, v := range cells {
			out[i] = Field{fmt.Sprintf("r%dc%d", i/p.N+1, i%p.N+1), int(v)}
		}
		return out
	}
	grid := make([][]int, p.N)
	for r := range grid {
		grid[r] = make([]int, p.N)
		for c := range grid[r] {
			grid[r][c] = int(cells[r*p.N+c])
		}
	}
	return []Field{{"grid", grid}}
}

// props is a property set as a list of names (never null in JSON).
func props(ps canon.Property) []string {
	names := ps.Names()
	if names == nil {
		names = []string{}
	}
	return names
}

// SolutionObject is a solution as every command prints it: id, class,
// orbit, symmetry (from the class's canonical form), props (its class's),
// and its cells (see cellFields).
func SolutionObject(p canon.Puzzle, s Solution, flat bool) Object {
	o := Object{{"id", s.ID}, {"class", s.ClassID}, {"orbit", s.Orbit}, {"symmetry", s.Symmetry.String()}, {"props", props(s.Props)}}
	return append(o, cellFields(p, s.Cells, flat)...)
}

// ClassObject is a class as every command prints it: class (its ID), orbit,
// matching (members that matched the filter), props and its canonical
// form's cells.
func ClassObject(p canon.Puzzle, c Class, flat bool) Object {
	o := Object{{"class", c.ID}, {"orbit", c.Orbit}, {"matching", c.Matching}, {"props", props(c.Props)}}
	return append(o, cellFields(p, c.Canonical, flat)...)
}

// RowWriter streams items of one kind to an output.
type RowWriter[T any] interface {
	Write(T) error
	Close() error
}

// itemWriter prints items through a Printer.
type itemWriter[T any] struct {
	p      *Printer
	object func(T, bool) Object
	flat   bool
}

func (w *itemWriter[T]) Write(v T) error { return w.p.Write(w.object(v, w.flat)) }
func (w *itemWriter[T]) Close() error    { return w.p.Close() }

// NewSolutionWriter streams solutions: in text one line each (see Cells).
func NewSolutionWriter(out io.Writer, format Format, p canon.Puzzle, headers bool) RowWriter[Solution] {
	pr := NewPrinter(out, format, headers).Lines(func(o Object) string { return cellsFrom(o, 5) })
	return &itemWriter[Solution]{p: pr, flat: format == CSV || format == Text, object: func(s Solution, flat bool) Object {
		return SolutionObject(p, s, flat)
	}}
}

// cellsFrom is the text of the cell fields of an object, which start at
// field first.
func cellsFrom(o Object, first int) string {
	var vals []string
	for _, f := range o[first:] {
		vals = append(vals, TextOf(f.Value))
	}
	return strings.Join(vals, " ")
}

// NewClassWriter streams classes: in text one line each, with the class ID
// padded to the width of maxID.
func NewClassWriter(out io.Writer, format Format, p canon.Puzzle, maxID int64, headers bool) RowWriter[Class] {
	width := len(strconv.FormatInt(max(maxID, 10), 10))
	pr := NewPrinter(out, format, headers).Lines(func(o Object) string {
		return fmt.Sprintf("%*d  %d  %d  %s  %s", width, o[0].Value, o[1].Value, o[2].Value, cellsFrom(o, 4), propsText(o[3].Value))
	})
	return &itemWriter[Class]{p: pr, flat: format == CSV || format == Text, object: func(c Class, flat bool) Object {
		return ClassObject(p, c, flat)
	}}
}

func propsText(v any) string {
	if names, ok := v.([]string); ok && len(names) > 0 {
		return strings.Join(names, ",")
	}
	return "-"
}

// RecordObject is a puzzle's record as info, build and merge print it.
// known_solutions and known_classes are the published counts the build
// checked against; verified says whether the counts still equal solcat's
// own table of published values.
func RecordObject(r catalog.Record) Object {
	var knownSolutions, knownClasses any // null when not recorded
	if r.KnownSolutions.Valid {
		knownSolutions = r.KnownSolutions.Int64
	}
	if r.KnownClasses.Valid {
		knownClasses = r.KnownClasses.Int64
	}
	return O("puzzle", r.Name, "kind", r.Kind, "n", r.N, "storage", string(r.Storage),
		"solutions", r.Solutions, "classes", r.Classes, "orbit1", r.Orbit1, "orbit2", r.Orbit2, "orbit4", r.Orbit4, "orbit8", r.Orbit8,
		"known_solutions", knownSolutions, "known_classes", knownClasses, "verified", verify.MatchesPublished(r),
		"search_nodes", r.SearchNodes, "workers", r.Workers, "build_seconds", r.BuildSeconds, "built_at", r.BuiltAt,
		"solver_version", r.SolverVersion, "content_hash", r.ContentHash)
}

// PuzzleReportObject is a puzzle's verify report as a record; full adds
// its problems.
func PuzzleReportObject(p verify.PuzzleReport, full bool) Object {
	r := p.Record
	o := O("puzzle", r.Name, "storage", string(r.Storage), "solutions", r.Solutions, "classes", r.Classes, "content_hash", r.ContentHash, "ok", p.OK(), "problem_count", p.ProblemCount)
	if full {
		o = append(o, Field{Name: "problems", Value: p.Problems})
	}
	return o
}
