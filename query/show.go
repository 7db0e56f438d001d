package query

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"solcat/canon"
)

// Shown is one class with all its members, and the solution asked for if
// any: what `show` prints and the web's class and solution pages draw.
type Shown struct {
	Puzzle   canon.Puzzle
	Class    Class
	FixedBy  []string   // the symmetries that carry the canonical form onto itself
	Members  []Solution // in ID order
	Solution *Solution  // the solution asked for, or nil
	// Solutions and Classes are the puzzle's totals.
	Solutions, Classes int64
}

// Show reads class classID with its members or, if solutionID is not 0,
// that solution and its class.
func (t *BoundPuzzle) Show(ctx context.Context, classID, solutionID int64) (Shown, error) {
	s := Shown{Puzzle: t.Puzzle, Solutions: t.Record.Solutions, Classes: t.Record.Classes, FixedBy: []string{}}
	if solutionID != 0 {
		sol, err := t.Solution(ctx, solutionID)
		if err != nil {
			return Shown{}, err
		}
		s.Solution, classID = &sol, sol.ClassID
	}
	class, err := t.Class(ctx, classID)
	if err != nil {
		return Shown{}, err
	}
	s.Class = class
	for _, sym := range t.Puzzle.Stabilizer(class.Canonical) {
		s.FixedBy = append(s.FixedBy, sym.String())
	}
	plan, err := t.Plan(ctx, Question{Ask: AskList, Filter: Filter{Class: classID}, Page: Page{Limit: -1}})
	if err != nil {
		return Shown{}, err
	}
	err = t.List(ctx, plan, func(sol Solution) error {
		s.Members = append(s.Members, sol)
		return nil
	})
	return s, err
}

// Object is the class's fields, the symmetries that fix it, its members and
// (if asked for) the solution, as `show --format json` prints them.
func (s Shown) Object() Object {
	o := append(O("puzzle", s.Puzzle.String()), ClassObject(s.Puzzle, s.Class, false)...)
	members := make([]Object, len(s.Members))
	for i, m := range s.Members {
		members[i] = SolutionObject(s.Puzzle, m, false)
	}
	o = append(o, O("fixed_by", s.FixedBy, "members", members)...)
	if s.Solution != nil {
		o = append(o, Field{Name: "solution", Value: SolutionObject(s.Puzzle, *s.Solution, false)})
	}
	return o
}

// Text draws the solution asked for, the class's canonical form and lists
// its members; ascii draws queens as Q and . instead of ♛ and ·.
func (s Shown) Text(ascii bool) string {
	var b strings.Builder
	p := s.Puzzle
	if sol := s.Solution; sol != nil {
		fmt.Fprintf(&b, "%s solution %d of %d: class %d, %s of its canonical form\n\n", p, sol.ID, s.Solutions, sol.ClassID, sol.Symmetry)
		b.WriteString(grid(p, sol.Cells, ascii))
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%s class %d of %d: orbit %d, fixed by %s\nproperties: %s\n\n", p, s.Class.ID, s.Classes, s.Class.Orbit, strings.Join(s.FixedBy, ", "), s.Class.Props)
	b.WriteString(grid(p, s.Class.Canonical, ascii))
	fmt.Fprintf(&b, "\nmembers (%d): id, symmetry from the canonical form, solution\n", len(s.Members))
	width := len(strconv.FormatInt(s.Solutions, 10))
	for _, m := range s.Members {
		fmt.Fprintf(&b, "  %*d  %-14s  %s\n", width, m.ID, m.Symmetry, Cells(p, m.Cells))
	}
	return b.String()
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
