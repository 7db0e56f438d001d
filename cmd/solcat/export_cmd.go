package main

import (
	"fmt"

	"solcat/canon"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/exporter"
	"solcat/cmd/solcat/help"

	"solcat/query"
	"solcat/query/records"
)

type exportCmd struct {
	Puzzle    string `arg:"" predictor:"puzzle" help:"The puzzle, for example magic:4."`
	Classes   bool   `help:"One row per class (with its matching members) instead of one per solution."`
	Output    string `short:"o" placeholder:"FILE" help:"Write to FILE (- for standard output); the file appears only when complete, its format follows its name (${export_extensions}) unless --format says."`
	Partition string `name:"partition-by" placeholder:"COLUMN" predictor:"partition" help:"With --output DIR: write a Hive-style folder of Parquet files, one DIR/KEY=VALUE/part-0.parquet per value of orbit, symmetry, cell:R,C (magic) or row:R (queens), or a cell's column (r1c1, row1); with --classes orbit or a cell; for a range (queens:4-6) puzzle."`
	cliparse.FilterFlags
	cliparse.ExplainFlag
	Format    records.Format `name:"format" placeholder:"FORMAT" predictor:"exportformat" default:"" enum:",${export_format_list}" help:"Output format: csv (the default), json, jsonl or parquet, in any case; without it, the --output file's extension (${export_extensions}) decides."`
	NoHeaders bool           `name:"no-headers" help:"Leave out the CSV header row."`
	Cells     string         `name:"parquet-cells" default:"columns" enum:"columns,list" help:"How Parquet holds the cells: columns (one column per cell, as in CSV: row1 .. rowN for queens, r1c1 .. rNcN for magic squares) or list (one list column, cells)."`
}

func (x *exportCmd) Help() string { return exporter.Help(help.Text("export")) }

func (x *exportCmd) Run(e *env) error {
	format, err := exporter.ChooseFormat(x.Format, x.Output, x.Partition)
	if err != nil {
		return err
	}
	ex := exporter.Export{Output: x.Output, Format: format, Headers: !x.NoHeaders, Classes: x.Classes, Partition: x.Partition,
		Cells: records.CellLayout(x.Cells), Stdout: e.stdout, Stderr: e.stderr, OwnFile: e.OwnFile}
	q := query.Question{Ask: query.AskList, Window: query.Window{Limit: -1}}
	if x.Classes {
		q.Ask = query.AskClasses
	}
	puzzles, err := canon.ParsePuzzles(x.Puzzle)
	if err != nil || len(puzzles) == 1 {
		t, plan, done, err := e.planned(x.Puzzle, x.FilterFlags, q)
		if err != nil {
			return err
		}
		defer done()
		if x.Explain {
			return e.explain(t, plan, records.Text)
		}
		return ex.One(e.ctx, t, plan)
	}
	// A range (queens:4-6): every puzzle's plan first, so that a filter one
	// of them cannot take is refused before anything is written.
	var parts []records.RangePart
	for _, p := range puzzles {
		t, plan, done, err := e.planned(p.String(), x.FilterFlags, q)
		if err != nil {
			return err
		}
		defer done()
		parts = append(parts, records.RangePart{T: t, Plan: plan})
	}
	if x.Explain {
		for _, part := range parts {
			if err := e.explain(part.T, part.Plan, records.Text); err != nil {
				return err
			}
		}
		return nil
	}
	return ex.Range(e.ctx, fmt.Sprintf("%s:%d-%d", puzzles[0].Kind, puzzles[0].N, puzzles[len(puzzles)-1].N), parts)
}
