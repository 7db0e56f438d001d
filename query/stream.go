package query

import (
	"context"
	"errors"
	"fmt"
)

// Sink takes the rows of a stream, in ID order: Solution those of a list,
// Class those of classes.
type Sink struct {
	Solution func(Solution) error
	Class    func(Class) error
}

// Pause lets a stream be read in pieces. After each row the stream asks
// Full; when it says so, the piece ends: the catalog's rows are closed, so
// the stream holds no connection of the catalog's, Flush is called, and
// the next piece reads on from the row after the last one given. A writer
// that may block (a network client) can then be written to by Flush
// alone, so a reader that stalls never holds the catalog.
type Pause struct {
	Full  func() bool
	Flush func() error
}

// errPause ends a piece of a paused stream.
var errPause = errors.New("pause")

// Stream gives the rows a planned list or classes question gives to rows,
// in ID order, read in pieces as pause says (the zero Pause: in one
// piece); the rows given are the same either way. It returns how many
// rows it gave.
func (t *BoundPuzzle) Stream(ctx context.Context, p *Plan, rows Sink, pause Pause) (n int64, err error) {
	full := pause.Full
	if full == nil {
		full = func() bool { return false }
	}
	// give gives one row; after it, the piece may end.
	var last int64 // the ID of the last row given
	give := func(id int64, row func() error) error {
		if n > 0 && id <= last {
			// A piece resumes after the last ID: one that went back would
			// give rows twice, or never end.
			return fmt.Errorf("%s: the stream gave ID %d after %d", t.Puzzle, id, last)
		}
		n++
		last = id
		if err := row(); err != nil {
			return err
		}
		if full() {
			return errPause
		}
		return nil
	}
	read := func(p *Plan) error {
		if p.Question.Ask == AskClasses {
			return t.Classes(ctx, p, func(c Class) error { return give(c.ID, func() error { return rows.Class(c) }) })
		}
		return t.List(ctx, p, func(s Solution) error { return give(s.ID, func() error { return rows.Solution(s) }) })
	}
	limit := p.Question.Window.Limit
	for piece := p; ; {
		err = read(piece)
		if !errors.Is(err, errPause) {
			return n, err
		}
		if err = pause.Flush(); err != nil {
			return n, err
		}
		left := int64(-1)
		if limit >= 0 {
			if left = limit - n; left == 0 {
				return n, nil
			}
		}
		if piece, err = t.resume(ctx, p, last+1, left); err != nil {
			return n, err
		}
	}
}
