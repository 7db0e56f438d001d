package solve

import (
	"context"
	"errors"

	"solcat/canon"
	"solcat/enumerate"
)

// A Question is what a count of queens answers, and its Key the one its
// answer is kept under in a catalog: the solutions that meet a constraint
// (or with an image that does), all of them or those with a board property
// (of one orbit size).
type Question struct {
	Constraint Constraint
	// UpToSymmetry asks the solutions with an image under the 8 symmetries
	// that meets the constraint: a question of its own.
	UpToSymmetry bool
	// Prop is 0 for every solution, or canon.Toroidal or canon.Superqueen
	// for the solutions with the property (the board counters').
	Prop canon.Property
	// Orbit, with Prop, asks the solutions of that orbit size only (0:
	// any), which are counted with no cell fixed.
	Orbit int
}

// Key is the key the question's answer is kept under: the question of the
// constraint (the least key of its images, each with what its queens
// imply, so that the spellings of one filter and of its images share it),
// marked 'U' when up to symmetry, and for a board property marked with it
// and the orbit size (see enumerate.BoardKey).
func (q Question) Key() []byte {
	key := q.Constraint.c.Question()
	if q.UpToSymmetry {
		key = append([]byte("U"), key...)
	}
	if q.Prop != 0 {
		key = enumerate.BoardKey(q.Prop, q.Orbit, key)
	}
	return key
}

// ParseQuestion reads a Key back. ok is false when its constraint or
// orbit size does not read; what was read before (Prop, UpToSymmetry) is
// set even then.
func ParseQuestion(key []byte) (q Question, ok bool) {
	orbit := 0
	if prop, o, rest, board := enumerate.ParseBoardKey(key); board {
		q.Prop, orbit, key = prop, o, rest
	}
	if len(key) > 0 && key[0] == 'U' {
		q.UpToSymmetry, key = true, key[1:]
	}
	c, ok := enumerate.ConstraintOfKey(key)
	q.Constraint = Constraint{c}
	switch orbit {
	case 0, 1, 2, 4, 8:
		q.Orbit = orbit
	default:
		ok = false // no class has that many members
	}
	return q, ok
}

// Count counts the question's solutions on up to workers goroutines (0:
// one per core), each count on all its units at once.
func (q Question) Count(ctx context.Context, workers int) (int64, error) {
	switch {
	case q.UpToSymmetry:
		return q.Constraint.unionOfImages(func(c Constraint) (int64, error) {
			return Question{Constraint: c, Prop: q.Prop}.Count(ctx, workers)
		})
	case q.Prop == 0:
		return enumerate.CountQueensConstrained(ctx, q.Constraint.c, workers)
	case q.Orbit == 0:
		return enumerate.CountBoardConstrained(ctx, q.Prop, q.Constraint.c, workers, nil)
	}
	// The classes by orbit size come of a count with no cell fixed.
	b, err := NewBoard(q.Prop, Queens(q.Constraint.N(), nil))
	if err != nil {
		return 0, err
	}
	_, orbits, err := b.Count(ctx, workers, nil, nil)
	return int64(q.Orbit) * orbits[q.Orbit], err
}

// ErrUnreadable is a kept answer's key that is no Question's.
var ErrUnreadable = errors.New("a question solcat cannot read")

// Recount counts again, on every core, the solutions of the question kept
// under key (see Question.Key).
func Recount(ctx context.Context, key []byte) (int64, error) {
	q, ok := ParseQuestion(key)
	if !ok {
		return 0, ErrUnreadable
	}
	return q.Count(ctx, 0)
}
