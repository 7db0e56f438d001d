package main

import (
	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/help"
	"solcat/query/records"
)

type sqlCmd struct {
	Query string `arg:"" name:"query" help:"One read-only statement: SELECT, WITH, VALUES, EXPLAIN or a PRAGMA that reads."`
	cliparse.FormatFlags
}

func (s *sqlCmd) Help() string { return help.Text("sql") }

func (s *sqlCmd) Run(e *env) error {
	format := s.Format
	cat, err := e.Open(e.ctx, "")
	if err != nil {
		return err
	}
	defer cat.Close()
	rows, err := cat.Query(e.ctx, s.Query)
	if err != nil {
		return sqlError(e, err, 0)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return sqlError(e, err, 0)
	}
	// Rows are written as they come: memory stays flat however many there
	// are, and the first appear at once.
	out := records.NewPrinter(e.stdout, format, !s.NoHeaders).ColumnNames(cols)
	if len(cols) == 0 {
		return out.Close()
	}
	n := 0
	for rows.Next() {
		if e.ctx.Err() != nil {
			break
		}
		vals, err := rows.Values()
		if err != nil {
			return sqlError(e, err, n)
		}
		row := make(records.Object, len(cols))
		for i, v := range vals {
			row[i] = records.Field{Name: cols[i], Value: v} // a blob prints as its byte values
		}
		if err := out.Write(row); err != nil {
			return sqlError(e, err, n)
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return sqlError(e, err, n)
	}
	if e.ctx.Err() != nil {
		return sqlError(e, e.ctx.Err(), n)
	}
	if err := out.Close(); err != nil {
		return sqlError(e, err, n)
	}
	return nil
}

// sqlError explains an error of the user's statement, n rows into it.
func sqlError(e *env, err error, n int) error {
	return advice.SQLRemedy(err, n, e.ctx.Err() != nil, e.DB)
}
