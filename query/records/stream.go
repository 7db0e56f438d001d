package records

import (
	"context"
	"io"

	"solcat/query"
)

// Stream writes the rows a planned list or classes question of t gives to
// w in format (CSV with a header row if headers; Parquet described by d),
// and calls tick with each row's ID and the highest ID there is, to show
// how far it is. It returns how many rows it wrote.
func Stream(ctx context.Context, t *query.BoundPuzzle, p *query.Plan, w io.Writer, format Format, headers bool, d Dataset, tick func(id, last int64)) (rows int64, err error) {
	return stream(ctx, t, p, w, format, headers, d, tick, query.Pause{})
}

// StreamPaused is Stream read in pieces, as pause says (query.Pause); the
// rows and bytes written are the same as Stream's.
func StreamPaused(ctx context.Context, t *query.BoundPuzzle, p *query.Plan, w io.Writer, format Format, headers bool, d Dataset, pause query.Pause) (rows int64, err error) {
	return stream(ctx, t, p, w, format, headers, d, nil, pause)
}

func stream(ctx context.Context, t *query.BoundPuzzle, p *query.Plan, w io.Writer, format Format, headers bool, d Dataset, tick func(id, last int64), pause query.Pause) (rows int64, err error) {
	if tick == nil {
		tick = func(int64, int64) {}
	}
	var to query.Sink
	var close func() error
	if p.Question.Ask == query.AskClasses {
		cw := NewClassWriter(w, format, t.Puzzle, t.Record.Classes, headers)
		if format == Parquet {
			cw = newParquetClassWriter(w, d)
		}
		to.Class = func(c query.Class) error {
			tick(c.ID, t.Record.Classes)
			return cw.Write(c)
		}
		close = cw.Close
	} else {
		sw := NewSolutionWriter(w, format, t.Puzzle, headers)
		if format == Parquet {
			sw = newParquetSolutionWriter(w, d)
		}
		to.Solution = func(s query.Solution) error {
			tick(s.ID, t.Record.Solutions)
			return sw.Write(s)
		}
		close = sw.Close
	}
	rows, err = t.Stream(ctx, p, to, pause)
	if err == nil {
		err = close()
	}
	return rows, err
}
