// Package enumerate holds the solvers: it finds every solution of a puzzle
// and streams them, in increasing lexicographic order, to a callback (or a
// puzzle's classes, by a symmetry-reduced search), counts them by methods
// that do not list them (the join counter for N-queens, the frame counter
// for order-5 magic squares), splits the work into units that run on every
// core with results that do not depend on the worker count, and knows the
// published counts to check against. It knows nothing of storage, SQL or
// the command line.
package enumerate

import (
	"context"
	"fmt"

	"solcat/canon"
)

// MaxStoredQueens is the largest board whose solutions are enumerated one by one.
const MaxStoredQueens = 17

// MaxClassStoredQueens is the largest board stored; the boards above
// MaxStoredQueens are stored as their classes (canonical forms) only.
const MaxClassStoredQueens = 19

// MaxCountedMagic is the order of magic squares counted without storing them.
const MaxCountedMagic = 5

// MaxCountedQueens is the largest board counted without storing solutions;
// each size takes about eight to nine times as long as the one before
// (queens:22 some 14 core-hours, queens:23 some 120), and a count is
// checked against the published one before it is recorded.
const MaxCountedQueens = 23

// Supported reports why p cannot be enumerated solution by solution (or,
// with countOnly, counted), or nil.
func Supported(p canon.Puzzle, countOnly bool) error {
	switch {
	case p.Kind == canon.Magic && p.N > MaxCountedMagic:
		return fmt.Errorf("magic squares are built up to order %d", MaxCountedMagic)
	case p.Kind == canon.Magic && countOnly && p.N != MaxCountedMagic:
		return fmt.Errorf("only magic:%d is counted without being stored; smaller orders are stored whole", MaxCountedMagic)
	case p.Kind == canon.Queens && countOnly && p.N > MaxCountedQueens:
		return fmt.Errorf("queens are counted up to N=%d", MaxCountedQueens)
	case p.Kind == canon.Queens && !countOnly && p.N > MaxClassStoredQueens:
		return fmt.Errorf("it has too many solutions to store (queens are stored up to N=%d, N=%d and %d as their classes only)", MaxClassStoredQueens, MaxStoredQueens+1, MaxClassStoredQueens)
	}
	return nil
}

// All streams every solution of p in lexicographic order.
func All(ctx context.Context, p canon.Puzzle, opt Options, emit Emit) (Stats, error) {
	if err := Supported(p, false); err != nil {
		return Stats{}, err
	}
	if p.Kind == canon.Magic {
		return Magic(ctx, p.N, opt, emit)
	}
	if p.N > MaxStoredQueens {
		return Stats{}, fmt.Errorf("queens are listed solution by solution up to N=%d", MaxStoredQueens)
	}
	return Queens(ctx, p.N, opt, emit)
}
