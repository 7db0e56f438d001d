package query

import (
	"context"

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
	plan, err := t.Plan(ctx, Question{Ask: AskList, Filter: Filter{Class: classID}, Window: Window{Limit: -1}})
	if err != nil {
		return Shown{}, err
	}
	err = t.List(ctx, plan, func(sol Solution) error {
		s.Members = append(s.Members, sol)
		return nil
	})
	return s, err
}
