package enumerate

import (
	"context"
	"fmt"

	"solcat/canon"
)

// MaxStoredQueens is the largest board whose solutions are enumerated one by one.
const MaxStoredQueens = 16

// Supported reports why p cannot be enumerated solution by solution, or nil.
func Supported(p canon.Puzzle) error {
	switch {
	case p.Kind == canon.Magic && p.N > MaxMagicOrder:
		return fmt.Errorf("%s cannot be built yet: magic squares are enumerated up to order %d", p, MaxMagicOrder)
	case p.Kind == canon.Queens && p.N > MaxStoredQueens:
		return fmt.Errorf("%s cannot be built yet: queens solutions are stored up to N=%d", p, MaxStoredQueens)
	}
	return nil
}

// All streams every solution of p in lexicographic order.
func All(ctx context.Context, p canon.Puzzle, opt Options, emit Emit) (Stats, error) {
	if err := Supported(p); err != nil {
		return Stats{}, err
	}
	if p.Kind == canon.Magic {
		return Magic(ctx, p.N, opt, emit)
	}
	return Queens(ctx, p.N, opt, emit)
}
