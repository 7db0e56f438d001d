package main

import (
	"fmt"
	"strconv"
	"strings"

	"solcat/canon"
	"solcat/query"
	"solcat/query/draw"
)

// svgFormat is show's drawing.
const svgFormat query.Format = "svg"

type showCmd struct {
	Puzzle    string `arg:"" predictor:"puzzle" help:"The puzzle, for example queens:8."`
	Class     *int64 `arg:"" optional:"" name:"class-id" help:"The class ID (1 is the class with the smallest canonical form)."`
	Solution  int64  `name:"solution" placeholder:"ID" help:"Show the solution with this ID, and its class."`
	ASCII     bool   `name:"ascii" help:"Draw queens with Q and . instead of ♛ and ·."`
	Format    string `name:"format" placeholder:"FORMAT" predictor:"showformat" help:"Output format: text (the default), json, jsonl, csv or svg (the drawing, for papers and slides), in any case."`
	NoHeaders bool   `name:"no-headers" help:"Leave out the CSV header row."`
}

func (s *showCmd) Help() string {
	return `Draws the class's canonical form, its orbit size and the symmetries that
fix it, then lists its members with the symmetry that carries the canonical
form onto each. With --solution ID, draws that solution first, then its
class.

Examples:
  solcat show magic:4 1
  solcat show queens:8 12 --ascii
  solcat show queens:8 --solution 14
  solcat show magic:5 --solution 2202441792
  solcat show queens:6 1 --format json
  solcat show magic:4 3 --format svg > magic4-class3.svg`
}

func (s *showCmd) Run(e *env) error {
	format, err := chooseFormat(s.Format, query.Text, append(query.Formats, svgFormat)...)
	if err != nil {
		return err
	}
	switch {
	case s.Class == nil && s.Solution == 0:
		return usagef("show needs a class ID, or --solution ID")
	case s.Class != nil && s.Solution != 0:
		return usagef("show takes a class ID or --solution ID, not both")
	case s.Class != nil && *s.Class < 1:
		return usagef("class ID %d: class IDs start at 1", *s.Class)
	case s.Solution < 0:
		return usagef("--solution %d: solution IDs start at 1", s.Solution)
	}
	t, done, err := e.target(s.Puzzle)
	if err != nil {
		return err
	}
	defer done()
	var solution *query.Solution
	var classID int64
	if s.Class != nil {
		classID = *s.Class
	}
	if s.Solution != 0 {
		sol, err := t.Solution(e.ctx, s.Solution)
		if err != nil {
			return err
		}
		solution, classID = &sol, sol.ClassID
	}
	class, err := t.Class(e.ctx, classID)
	if err != nil {
		return err
	}
	plan, err := t.Plan(e.ctx, query.Question{Ask: query.AskList, Filter: query.Filter{Class: classID}, Page: query.Page{Limit: -1}})
	if err != nil {
		return err
	}
	var members []query.Solution
	err = t.List(e.ctx, plan, func(sol query.Solution) error {
		members = append(members, sol)
		return nil
	})
	if err != nil {
		return err
	}
	fixedBy := []string{}
	for _, sym := range t.Puzzle.Stabilizer(class.Canonical) {
		fixedBy = append(fixedBy, sym.String())
	}
	switch format {
	case svgFormat:
		// The solution asked for, else the class's canonical form; an order-4
		// square with its complementary pairs (Dudeney's pattern).
		cells, title := class.Canonical, fmt.Sprintf("%s class %d", t.Puzzle, class.ID)
		if solution != nil {
			cells, title = solution.Cells, fmt.Sprintf("%s solution %d", t.Puzzle, solution.ID)
		}
		_, err := fmt.Fprintln(e.stdout, draw.Solution(t.Puzzle, cells, draw.Options{Title: title, Pairs: t.Puzzle.Kind == canon.Magic && t.Puzzle.N == 4}))
		return err
	case query.JSON:
		// The class's fields, its symmetries, its members (and the solution asked for).
		o := append(query.O("puzzle", t.Puzzle.String()), query.ClassObject(t.Puzzle, class, false)...)
		o = append(o, query.Field{Name: "fixed_by", Value: fixedBy})
		objs := make([]query.Object, len(members))
		for i, m := range members {
			objs[i] = query.SolutionObject(t.Puzzle, m, false)
		}
		o = append(o, query.Field{Name: "members", Value: objs})
		if solution != nil {
			o = append(o, query.Field{Name: "solution", Value: query.SolutionObject(t.Puzzle, *solution, false)})
		}
		return printOne(e, format, true, o)
	case query.JSONL, query.CSV:
		// The members, as list prints solutions.
		w := query.NewSolutionWriter(e.stdout, format, t.Puzzle, !s.NoHeaders)
		for _, m := range members {
			w.Write(m)
		}
		return w.Close()
	}
	var b strings.Builder
	if solution != nil {
		fmt.Fprintf(&b, "%s solution %d of %d: class %d, %s of its canonical form\n\n", t.Puzzle, solution.ID, t.Record.Solutions, solution.ClassID, solution.Symmetry)
		b.WriteString(drawGrid(t.Puzzle, solution.Cells, s.ASCII))
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%s class %d of %d: orbit %d, fixed by %s\nproperties: %s\n\n", t.Puzzle, class.ID, t.Record.Classes, class.Orbit, strings.Join(fixedBy, ", "), class.Props)
	b.WriteString(drawGrid(t.Puzzle, class.Canonical, s.ASCII))
	fmt.Fprintf(&b, "\nmembers (%d): id, symmetry from the canonical form, solution\n", len(members))
	width := len(strconv.FormatInt(t.Record.Solutions, 10))
	for _, m := range members {
		fmt.Fprintf(&b, "  %*d  %-14s  %s\n", width, m.ID, m.Symmetry, query.Cells(t.Puzzle, m.Cells))
	}
	_, err = fmt.Fprint(e.stdout, b.String())
	return err
}

// drawGrid draws a magic square with its columns aligned, or a queens board
// with one glyph for a queen and another for an empty square.
func drawGrid(p canon.Puzzle, cells []byte, ascii bool) string {
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
