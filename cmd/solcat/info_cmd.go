package main

import (
	"fmt"
	"strings"

	"solcat/catalog"
	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/cliparse"
	"solcat/query/records"
)

type infoCmd struct {
	cliparse.FormatFlags
}

func (i *infoCmd) Help() string { return helpText("info") }

func (i *infoCmd) Run(e *env) error {
	format, err := i.Chosen()
	if err != nil {
		return err
	}
	cat, err := e.open("")
	if err != nil {
		return err
	}
	defer cat.Close()
	c, err := advice.ContentsOf(e.ctx, cat, e.cli.DB)
	if err != nil {
		return err
	}
	recs := c.Records
	if format != records.Text {
		// Puzzles first, then shards and unfinished builds, told apart by
		// storage.
		out := records.NewPrinter(e.stdout, format, !i.NoHeaders).Columns(records.RecordObject(catalog.Record{}))
		for _, r := range recs {
			out.Write(records.RecordObject(r))
		}
		if format == records.CSV {
			// A CSV has one set of columns; say what it leaves out
			// rather than print nothing without a word.
			var left []string
			for _, s := range c.Shards {
				left = append(left, fmt.Sprintf("%s (shard %d/%d)", s.Puzzle, s.Shard.Shard, s.Of))
			}
			for _, u := range c.Unfinished {
				left = append(left, u.Puzzle.String()+" (unfinished)")
			}
			if len(left) > 0 {
				fmt.Fprintf(e.stderr, "solcat: not in the CSV: %s; 'solcat info' or --format json lists them\n", strings.Join(left, ", "))
			}
			return out.Close()
		}
		for _, s := range c.Shards {
			out.Write(s.JSON)
		}
		for _, u := range c.Unfinished {
			out.Write(u.JSON)
		}
		return out.Close()
	}
	defer func() {
		for _, s := range c.Shards {
			fmt.Fprintln(e.stdout, s.Line)
		}
		for _, u := range c.Unfinished {
			fmt.Fprintln(e.stdout, u.Line)
		}
		if c.Running && len(c.Unfinished) == 0 {
			fmt.Fprintf(e.stdout, "a build is writing this catalog: %s\n", c.Writer)
		}
	}()
	if len(recs) == 0 {
		if len(c.Shards) > 0 || len(c.Unfinished) > 0 || c.Running {
			return nil
		}
		_, err := fmt.Fprintf(e.stdout, "%s holds no puzzles yet; run 'solcat build'\n", e.cli.DB)
		return err
	}
	return records.WriteRecordTable(e.stdout, recs, !i.NoHeaders)
}
