package main

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/release"

	"solcat/cmd/solcat/console"
	"solcat/cmd/solcat/outfile"
	"solcat/query"
	"solcat/query/records"
)

type exportCmd struct {
	Puzzle    string `arg:"" predictor:"puzzle" help:"The puzzle, for example magic:4."`
	Classes   bool   `help:"One row per class (with its matching members) instead of one per solution."`
	Output    string `short:"o" placeholder:"FILE" help:"Write to FILE (- for standard output); the file appears only when complete, its format follows its name (.csv, .jsonl, .parquet) unless --format says."`
	Partition string `name:"partition-by" placeholder:"COLUMN" predictor:"partition" help:"With --output DIR: write a Hive-style folder of Parquet files, one DIR/KEY=VALUE/part-0.parquet per value of orbit, symmetry, cell:R,C (magic) or row:R (queens)."`
	cliparse.FilterFlags
	cliparse.ExplainFlag
	Format    string `name:"format" placeholder:"FORMAT" predictor:"exportformat" help:"Output format: csv (the default), json, jsonl or parquet, in any case; without it, the --output file's extension (.csv, .json, .jsonl, .parquet) decides."`
	NoHeaders bool   `name:"no-headers" help:"Leave out the CSV header row."`
}

func (x *exportCmd) Help() string { return helpText("export") }

func (x *exportCmd) Run(e *env) error {
	format, err := x.format(e)
	if err != nil {
		return err
	}
	q := query.Question{Ask: query.AskList, Page: query.Page{Limit: -1}}
	if x.Classes {
		q.Ask = query.AskClasses
	}
	t, plan, done, err := e.planned(x.Puzzle, x.FilterFlags, q)
	if err != nil {
		return err
	}
	defer done()
	if x.Explain {
		return e.explain(t, plan, records.Text)
	}
	if x.Partition != "" {
		return x.partitioned(e, t, plan, format)
	}
	out, err := x.open(e, format)
	if err != nil {
		return err
	}
	defer out.Abort()
	// Rows come in ID order, so the ID reached tells how far the export is,
	// filtered or not. The bar shows only when the rows do not go to the
	// terminal.
	bar := console.NewProgress(e.stderr, "export "+t.Puzzle.String(), "IDs")
	if out.IsTerminal() || (x.Output == "" && console.IsTerminal(e.stdout)) {
		bar.Hide()
	}
	// The digest lets anyone check that two exports are the same bytes.
	digest := sha256.New()
	seen := 0
	rows, err := records.Stream(e.ctx, t, plan, io.MultiWriter(out, digest), format, !x.NoHeaders, dataset(t, plan), func(id, last int64) {
		if seen++; seen%4096 == 0 {
			bar.Update(id, last)
		}
	})
	bar.Finish()
	if err == nil {
		err = out.Commit()
	}
	if err != nil {
		return x.failed(e, out, err)
	}
	if x.Output != "" && x.Output != "-" {
		fmt.Fprintf(e.stderr, "wrote %d rows to %s, sha256 %x\n", rows, x.Output, digest.Sum(nil))
	}
	return nil
}

// failed says what an export that stopped left behind: nothing, when it
// wrote to a temporary file.
func (x *exportCmd) failed(e *env, out *outfile.File, err error) error {
	out.Abort()
	left := "nothing was written"
	if out.Direct() {
		left = "the rows before it were written"
	}
	if e.ctx.Err() != nil {
		return fmt.Errorf("%w; %s", advice.ErrInterrupted, left)
	}
	return fmt.Errorf("%w; %s", err, left)
}

// format is --format, or else the format the output file's name asks for
// (.csv, .jsonl, .parquet), or CSV; a --format that contradicts the name is
// refused.
func (x *exportCmd) format(e *env) (records.Format, error) {
	chosen, err := cliparse.ChooseFormat(x.Format, records.CSV, records.CSV, records.JSON, records.JSONL, records.Parquet)
	if err != nil {
		return "", err
	}
	named := records.Format("")
	if x.Output != "" && x.Output != "-" && x.Partition == "" {
		named = records.FormatOfFile(x.Output)
	}
	switch {
	case x.Format == "" && x.Partition != "":
		return records.Parquet, nil // the only format a partitioned export writes
	case x.Format == "" && named != "":
		return named, nil
	case named != "" && chosen != named:
		return "", usagef("--format %s contradicts the file name %s; drop --format or name the file %s", chosen, x.Output, strings.TrimSuffix(x.Output, filepath.Ext(x.Output))+"."+string(chosen))
	}
	return chosen, nil
}

// open opens the export's destination: standard output, or --output.
func (x *exportCmd) open(e *env, format records.Format) (*outfile.File, error) {
	if x.Output == "" || x.Output == "-" {
		out := outfile.Stdout(e.stdout)
		if format == records.Parquet && out.IsTerminal() {
			return nil, usagef("Parquet is binary and standard output is a terminal; write it to a file with --output FILE.parquet, or pipe it")
		}
		return out, nil
	}
	out, err := outfile.Create(x.Output, e.ownFile)
	if err != nil {
		return nil, advice.OutputError(x.Output, err)
	}
	if format == records.Parquet && out.IsTerminal() {
		out.Abort()
		return nil, usagef("Parquet is binary and standard output is a terminal; write it to a file with --output FILE.parquet, or pipe it")
	}
	return out, nil
}

// partitioned writes a Hive-style folder of Parquet files, one per value of
// the partition column, through a temporary folder renamed at the end.
func (x *exportCmd) partitioned(e *env, t *query.BoundPuzzle, plan *query.Plan, format records.Format) error {
	switch {
	case format != records.Parquet:
		return usagef("--partition-by writes Parquet files; use --format parquet or leave --format out")
	case x.Output == "" || x.Output == "-":
		return usagef("--partition-by writes a folder; name it with --output DIR")
	case x.Classes:
		return usagef("--partition-by splits solutions; drop --classes")
	}
	pt, err := query.ParsePartition(t.Puzzle, x.Partition)
	if err != nil {
		return err
	}
	dir, err := outfile.CreateFolder(x.Output, e.ownFile)
	if err != nil {
		return advice.OutputError(x.Output, err)
	}
	defer dir.Abort()
	bar := console.NewProgress(e.stderr, "export "+t.Puzzle.String(), "IDs")
	rows, parts, err := records.ExportPartitioned(e.ctx, t, plan, dataset(t, plan), pt, dir.Path(), func(id int64) { bar.Update(id, t.Record.Solutions) })
	bar.Finish()
	if err != nil {
		err = fmt.Errorf("cannot write %s: %w", x.Output, unwrapPath(err))
	}
	if err == nil {
		err = dir.Commit()
	}
	if err != nil {
		dir.Abort()
		if e.ctx.Err() != nil {
			return fmt.Errorf("%w; nothing was written", advice.ErrInterrupted)
		}
		return fmt.Errorf("%w; nothing was written", err)
	}
	fmt.Fprintf(e.stderr, "wrote %d rows to %s in %d partitions by %s\n", rows, x.Output, parts, pt.Key)
	return nil
}

// unwrapPath drops the file name from an error about a file: the user
// named another one.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// dataset describes an export for its Parquet metadata.
func dataset(t *query.BoundPuzzle, plan *query.Plan) records.Dataset {
	v := release.Read()
	return records.Dataset{Puzzle: t.Puzzle, Filter: plan.Question.Filter.String(t.Puzzle), Version: v.Module, Revision: v.Revision,
		SchemaVersion: v.Schema, ContentHash: t.Record.ContentHash}
}
