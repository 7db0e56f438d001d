package query

import (
	"context"
	"io"
)

// Stream writes the rows a planned list or classes question gives to w in
// format (CSV with a header row if headers; Parquet described by d), and
// calls tick with each row's ID and the highest ID there is, to show how
// far it is. It returns how many rows it wrote.
func (t *Target) Stream(ctx context.Context, p *Plan, w io.Writer, format Format, headers bool, d Dataset, tick func(id, last int64)) (rows int64, err error) {
	if tick == nil {
		tick = func(int64, int64) {}
	}
	if p.Question.Ask == AskClasses {
		cw := NewClassWriter(w, format, t.Puzzle, t.Record.Classes, headers)
		if format == Parquet {
			cw = NewParquetClassWriter(w, d)
		}
		err = t.Classes(ctx, p, func(c Class) error { rows++; tick(c.ID, t.Record.Classes); return cw.Write(c) })
		if err == nil {
			err = cw.Close()
		}
		return rows, err
	}
	sw := NewSolutionWriter(w, format, t.Puzzle, headers)
	if format == Parquet {
		sw = NewParquetSolutionWriter(w, d)
	}
	err = t.List(ctx, p, func(s Solution) error { rows++; tick(s.ID, t.Record.Solutions); return sw.Write(s) })
	if err == nil {
		err = sw.Close()
	}
	return rows, err
}
