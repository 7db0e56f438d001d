package records

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"

	"solcat/canon"
	"solcat/catalog"
	"solcat/query"
	"solcat/query/draw"
	"solcat/query/verify"
)

// cellsText renders stored cells for a person: a magic square's values row
// by row, or the 1-based column of the queen in each row, separated by
// spaces.
func cellsText(p canon.Puzzle, cells []byte) string {
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
// column of each row's queen); flat (CSV), one field per cell, named as
// canon.CellName names them: row1..rowN or r1c1..rNcN.
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
			out[r] = Field{canon.CellName(p, r), c}
		}
		return out
	}
	if flat {
		out := make([]Field, len(cells))
		for i, v := range cells {
			out[i] = Field{canon.CellName(p, i), int(v)}
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

// props is a property set as a list of names (never null in JSON), or
// flat (CSV, text) as PropsField writes it.
func props(ps canon.Property, flat bool) any {
	if flat {
		return PropsField(ps)
	}
	names := ps.Names()
	if names == nil {
		names = []string{}
	}
	return names
}

// PropsSeparator joins a class's property names wherever they are one
// text: in CSV, in text output, on web pages, and in the SQL views'
// properties column.
const PropsSeparator = ","

// PropsField is a property set as one CSV field: its names joined by
// PropsSeparator, empty for none.
func PropsField(ps canon.Property) string { return strings.Join(ps.Names(), PropsSeparator) }

// PropsText is a property set as text output writes it: as PropsField,
// "-" for none.
func PropsText(ps canon.Property) string {
	if len(ps.Names()) == 0 {
		return "-"
	}
	return PropsField(ps)
}

// SolutionObject is a solution as every command prints it: id, class,
// orbit, symmetry (from the class's canonical form), props (its class's),
// and its cells (see cellFields).
func SolutionObject(p canon.Puzzle, s query.Solution, flat bool) Object {
	o := Object{{"id", s.ID}, {"class", s.ClassID}, {"orbit", s.Orbit}, {"symmetry", s.Symmetry.String()}, {"props", props(s.Props, flat)}}
	return append(o, cellFields(p, s.Cells, flat)...)
}

// ClassObject is a class as every command prints it: class (its ID), orbit,
// matching (members that matched the filter), props and its canonical
// form's cells.
func ClassObject(p canon.Puzzle, c query.Class, flat bool) Object {
	o := Object{{"class", c.ID}, {"orbit", c.Orbit}, {"matching", c.Matching}, {"props", props(c.Props, flat)}}
	return append(o, cellFields(p, c.Canonical, flat)...)
}

// WriteRecords writes puzzles' records in format, a record a row, as build
// prints them beside its text lines.
func WriteRecords(w io.Writer, format Format, headers bool, recs []catalog.Record) error {
	p := NewPrinter(w, format, headers).Columns(RecordObject(catalog.Record{}))
	for _, r := range recs {
		p.Write(RecordObject(r))
	}
	return p.Close()
}

// RecordObject is a puzzle's record as info, build, merge and the web
// print it. known_solutions and known_classes are the published counts the
// build checked against; verified says whether the counts still equal
// solcat's own table of published values; oeis_solutions and oeis_classes
// name the OEIS entries of those counts (OEISObject).
func RecordObject(r catalog.Record) Object {
	var knownSolutions, knownClasses any // null when not recorded
	if r.KnownSolutions != nil {
		knownSolutions = *r.KnownSolutions
	}
	if r.KnownClasses != nil {
		knownClasses = *r.KnownClasses
	}
	builtAt := r.BuiltAtText // as stored, where it is not a time
	if !r.BuiltAt.IsZero() {
		builtAt = r.BuiltAt.Format(time.RFC3339)
	}
	return append(Obj("puzzle", r.Name, "kind", string(r.Kind), "n", r.N, "storage", string(r.Storage),
		"solutions", r.Solutions, "classes", r.Classes, "orbit1", r.Orbits[1], "orbit2", r.Orbits[2], "orbit4", r.Orbits[4], "orbit8", r.Orbits[8],
		"known_solutions", knownSolutions, "known_classes", knownClasses, "verified", verify.MatchesPublished(r),
		"search_nodes", r.SearchNodes, "workers", r.Workers, "build_seconds", r.BuildSeconds, "built_at", builtAt,
		"solver_version", r.SolverVersion, "content_hash", r.ContentHash), OEISObject(r.Kind)...)
}

// OEISObject is the keys that name the OEIS entries a kind's counts are
// checked against: oeis_solutions (null where OEIS counts the classes
// alone) and oeis_classes.
func OEISObject(k canon.Kind) Object {
	seq := canon.OEIS(k)
	var solutions any
	if seq.Solutions != "" {
		solutions = seq.Solutions
	}
	return Obj("oeis_solutions", solutions, "oeis_classes", seq.Classes)
}

// PuzzleReportObject is a puzzle's verify report as a record; full adds
// its problems.
func PuzzleReportObject(p verify.PuzzleReport, full bool) Object {
	r := p.Record
	o := Obj("puzzle", r.Name, "storage", string(r.Storage), "solutions", r.Solutions, "classes", r.Classes, "content_hash", r.ContentHash, "ok", p.OK(), "problem_count", p.ProblemCount)
	if full {
		o = append(o, Field{Name: "problems", Value: p.Problems}, Field{Name: "notes", Value: p.Notes})
	}
	return o
}

// ShownMembers are a class's members as show writes them in every
// format but text and SVG, and the web's class and solution pages give
// them as JSON: the solutions as list writes them (the member whose
// symmetry is identity is the canonical form).
func ShownMembers(s query.Shown) []Object {
	out := make([]Object, len(s.Members))
	for i, m := range s.Members {
		out[i] = SolutionObject(s.Puzzle, m, false)
	}
	return out
}

// ShownText draws the solution asked for, the class's canonical form and
// lists its members; ascii draws queens as Q and . instead of ♛ and ·.
func ShownText(s query.Shown, ascii bool) string {
	var b strings.Builder
	p := s.Puzzle
	if sol := s.Solution; sol != nil {
		fmt.Fprintf(&b, "%s solution %d of %s: class %d, %s of its canonical form\n\n", p, sol.ID, humanize.Comma(s.Solutions), sol.ClassID, sol.Symmetry)
		b.WriteString(grid(p, sol.Cells, ascii))
		sums(&b, p, sol.Cells)
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%s class %d of %s: orbit %d, fixed by %s\nproperties: %s\n\n", p, s.Class.ID, humanize.Comma(s.Classes), s.Class.Orbit, strings.Join(s.FixedBy, ", "), PropsText(s.Class.Props))
	b.WriteString(grid(p, s.Class.Canonical, ascii))
	sums(&b, p, s.Class.Canonical)
	fmt.Fprintf(&b, "\nmembers (%d): id, symmetry from the canonical form, solution\n", len(s.Members))
	width := len(strconv.FormatInt(s.Solutions, 10))
	for _, m := range s.Members {
		fmt.Fprintf(&b, "  %*d  %-14s  %s\n", width, m.ID, m.Symmetry, cellsText(p, m.Cells))
	}
	return b.String()
}

// sums writes a magic square's line sums under its grid.
func sums(b *strings.Builder, p canon.Puzzle, cells []byte) {
	if text := LineSumsText(p, cells); text != "" {
		b.WriteString("  " + text + "\n")
	}
}

// grid draws a magic square with its columns aligned, or a queens board
// with one glyph for a queen and another for an empty square, a line a row.
func grid(p canon.Puzzle, cells []byte, ascii bool) string {
	var b strings.Builder
	n := p.N
	if p.Kind == canon.Queens {
		queen, empty := "♛", "·"
		if ascii {
			queen, empty = "Q", "."
		}
		for r := 0; r < n; r++ {
			b.WriteString(" ")
			for c := 0; c < n; c++ {
				cell := empty
				if int(cells[r]) == c {
					cell = queen
				}
				b.WriteString(" " + cell)
			}
			b.WriteString("\n")
		}
		return b.String()
	}
	width := len(strconv.Itoa(n * n))
	for r := 0; r < n; r++ {
		b.WriteString(" ")
		for c := 0; c < n; c++ {
			fmt.Fprintf(&b, " %*d", width, cells[r*n+c])
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Columns are the column names of the rows of p's solutions (or classes)
// in CSV and in Parquet (in layout), as the writers write them: what help
// and docs list.
func Columns(p canon.Puzzle, classes bool, format Format, layout CellLayout) []string {
	cells := make([]byte, p.Len())
	if p.Kind == canon.Magic {
		for i := range cells {
			cells[i] = 1
		}
	}
	var o Object
	if classes {
		o = ClassObject(p, query.Class{Canonical: cells}, true)
	} else {
		o = SolutionObject(p, query.Solution{Cells: cells}, true)
	}
	var out []string
	for _, f := range o[:len(o)-len(cells)] {
		out = append(out, f.Name)
	}
	if format != Parquet {
		for _, f := range o[len(o)-len(cells):] {
			out = append(out, f.Name)
		}
		return out
	}
	if layout == CellList {
		return append(out, "cells")
	}
	return append(out, CellColumnNames(p)...)
}

// SVG is show's drawing of a solution or class, for papers and slides.
const SVG Format = "svg"

// ShownName names what is shown: "queens:8 class 3" or "queens:8
// solution 12".
func ShownName(s query.Shown) string {
	if s.Solution != nil {
		return fmt.Sprintf("%s solution %d", s.Puzzle, s.Solution.ID)
	}
	return fmt.Sprintf("%s class %d", s.Puzzle, s.Class.ID)
}

// WriteShown writes a class shown with its members: as text, as its
// members' records (json, jsonl, csv), or drawn (SVG): the solution asked
// for, else the class's canonical form; an order-4 square as its grid and,
// beside it, its complementary pairs (Dudeney's pattern).
func WriteShown(w io.Writer, format Format, headers bool, s query.Shown, ascii bool) error {
	p := s.Puzzle
	switch format {
	case SVG:
		cells := s.Class.Canonical
		if sol := s.Solution; sol != nil {
			cells = sol.Cells
		}
		o := draw.Options{Title: ShownName(s), Coords: true}
		svg := draw.Solution(p, cells, o)
		if p.Kind == canon.Magic && p.N == 4 {
			svg = draw.GridAndPairs(p, cells, o)
		}
		_, err := fmt.Fprintln(w, svg)
		return err
	case JSON, JSONL, CSV:
		sw := NewSolutionWriter(w, format, p, headers)
		for _, m := range s.Members {
			if err := sw.Write(m); err != nil {
				return err
			}
		}
		return sw.Close()
	}
	_, err := fmt.Fprint(w, ShownText(s, ascii))
	return err
}
