package query

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// Stream writes the rows a planned list or classes question gives to w in
// format (CSV with a header row if headers; Parquet described by d), and
// calls tick with each row's ID and the highest ID there is, to show how
// far it is. It returns how many rows it wrote.
func (t *BoundPuzzle) Stream(ctx context.Context, p *Plan, w io.Writer, format Format, headers bool, d Dataset, tick func(id, last int64)) (rows int64, err error) {
	return t.stream(ctx, p, w, format, headers, d, tick, Pause{})
}

// Pause lets a stream be read in pieces. After each row the stream asks
// Full; when it says so, the piece ends: the catalog's rows are closed, so
// the stream holds no connection of the catalog's, Flush is called, and
// the next piece reads on from the row after the last one written. A
// writer that may block (a network client) can then be written to by
// Flush alone, so a reader that stalls never holds the catalog.
type Pause struct {
	Full  func() bool
	Flush func() error
}

// StreamPaused is Stream read in pieces, as pause says; the rows and bytes
// written are the same as Stream's.
func (t *BoundPuzzle) StreamPaused(ctx context.Context, p *Plan, w io.Writer, format Format, headers bool, d Dataset, pause Pause) (rows int64, err error) {
	return t.stream(ctx, p, w, format, headers, d, nil, pause)
}

// errPause ends a piece of a paused stream.
var errPause = errors.New("pause")

func (t *BoundPuzzle) stream(ctx context.Context, p *Plan, w io.Writer, format Format, headers bool, d Dataset, tick func(id, last int64), pause Pause) (rows int64, err error) {
	if tick == nil {
		tick = func(int64, int64) {}
	}
	full := pause.Full
	if full == nil {
		full = func() bool { return false }
	}
	// write writes one row; after it, the piece may end.
	var last int64 // the ID of the last row written
	write := func(id int64, row func() error) error {
		if rows > 0 && id <= last {
			// A piece resumes after the last ID: one that went back would
			// give rows twice, or never end.
			return fmt.Errorf("%s: the stream gave ID %d after %d", t.Puzzle, id, last)
		}
		rows++
		last = id
		if err := row(); err != nil {
			return err
		}
		if full() {
			return errPause
		}
		return nil
	}
	var read func(*Plan) error
	var close func() error
	if p.Question.Ask == AskClasses {
		cw := NewClassWriter(w, format, t.Puzzle, t.Record.Classes, headers)
		if format == Parquet {
			cw = NewParquetClassWriter(w, d)
		}
		read = func(p *Plan) error {
			return t.Classes(ctx, p, func(c Class) error {
				tick(c.ID, t.Record.Classes)
				return write(c.ID, func() error { return cw.Write(c) })
			})
		}
		close = cw.Close
	} else {
		sw := NewSolutionWriter(w, format, t.Puzzle, headers)
		if format == Parquet {
			sw = NewParquetSolutionWriter(w, d)
		}
		read = func(p *Plan) error {
			return t.List(ctx, p, func(s Solution) error {
				tick(s.ID, t.Record.Solutions)
				return write(s.ID, func() error { return sw.Write(s) })
			})
		}
		close = sw.Close
	}
	limit := p.Question.Page.Limit
	for piece := p; ; {
		err = read(piece)
		if !errors.Is(err, errPause) {
			break
		}
		if err = pause.Flush(); err != nil {
			return rows, err
		}
		left := int64(-1)
		if limit >= 0 {
			if left = limit - rows; left == 0 {
				err = nil
				break
			}
		}
		if piece, err = t.resume(ctx, p, last+1, left); err != nil {
			return rows, err
		}
	}
	if err == nil {
		err = close()
	}
	return rows, err
}
