package main

import (
	"encoding/json"
	"fmt"

	"solcat/query"
)

type countCmd struct {
	Puzzle  string `arg:"" help:"The puzzle, for example magic:4."`
	Classes bool   `help:"Count the classes with at least one matching member instead of solutions."`
	filterFlags
}

func (c *countCmd) Help() string {
	return `Examples:
  solcat count magic:4 --cell 1,1=1            # 416
  solcat count queens:8 --classes              # 12
  solcat count queens:8 --orbit 4              # 4
  solcat count magic:4 --cell 1,1=16 --cell 4,4=1 --format json`
}

func (c *countCmd) Run(e *env) error {
	format, err := e.format(query.Text, query.Text, query.JSON, query.JSONL, query.CSV)
	if err != nil {
		return err
	}
	t, f, done, err := e.filtered(c.Puzzle, c.filterFlags)
	if err != nil {
		return err
	}
	defer done()
	n, err := t.Count(e.ctx, f, c.Classes)
	if err != nil {
		return err
	}
	of := "solutions"
	if c.Classes {
		of = "classes"
	}
	switch format {
	case query.JSON, query.JSONL:
		v := struct {
			Puzzle string `json:"puzzle"`
			Of     string `json:"of"`
			Count  int64  `json:"count"`
		}{t.Puzzle.String(), of, n}
		if format == query.JSONL {
			return json.NewEncoder(e.stdout).Encode(v)
		}
		return writeJSON(e.stdout, v)
	case query.CSV:
		_, err = fmt.Fprintf(e.stdout, "puzzle,of,count\n%s,%s,%d\n", t.Puzzle, of, n)
	default:
		_, err = fmt.Fprintln(e.stdout, n)
	}
	return err
}
