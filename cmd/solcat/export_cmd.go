package main

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/template"

	"solcat/canon"
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
	Output    string `short:"o" placeholder:"FILE" help:"Write to FILE (- for standard output); the file appears only when complete, its format follows its name (${export_extensions}) unless --format says."`
	Partition string `name:"partition-by" placeholder:"COLUMN" predictor:"partition" help:"With --output DIR: write a Hive-style folder of Parquet files, one DIR/KEY=VALUE/part-0.parquet per value of orbit, symmetry, cell:R,C (magic) or row:R (queens); with --classes orbit or a cell; for a range (queens:4-6) puzzle."`
	cliparse.FilterFlags
	cliparse.ExplainFlag
	Format    string `name:"format" placeholder:"FORMAT" predictor:"exportformat" help:"Output format: csv (the default), json, jsonl or parquet, in any case; without it, the --output file's extension (${export_extensions}) decides."`
	NoHeaders bool   `name:"no-headers" help:"Leave out the CSV header row."`
	Cells     string `name:"parquet-cells" default:"columns" enum:"columns,list" help:"How Parquet holds the cells: columns (one column per cell: r1 .. rN for queens, c1_1 .. cN_N for magic squares) or list (one list column, cells)."`
}

func (x *exportCmd) Help() string { return exportHelp() }

// exportFormatList are the formats export writes, in the order help lists
// them; format and the help say the same.
var exportFormatList = []records.Format{records.CSV, records.JSON, records.JSONL, records.Parquet}

// exportFormats is the formats for the command's summary: "CSV, JSON, JSON
// lines or Parquet".
func exportFormats() string {
	names := map[records.Format]string{records.CSV: "CSV", records.JSON: "JSON", records.JSONL: "JSON lines", records.Parquet: "Parquet"}
	var out []string
	for _, f := range exportFormatList {
		out = append(out, names[f])
	}
	return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
}

// exportHelp is help/export.txt with the columns and file extensions
// filled in from the lists the writers use, so help cannot drift from the
// files.
func exportHelp() string {
	queens4, magic3 := canon.Puzzle{Kind: canon.Queens, N: 4}, canon.Puzzle{Kind: canon.Magic, N: 3}
	list := func(cols []string) string { return strings.Join(cols, ", ") }
	var out strings.Builder
	err := template.Must(template.New("export").Parse(helpText("export"))).Execute(&out, map[string]string{
		"CSVSolutions":     list(records.Columns(queens4, false, records.CSV, "")),
		"CSVMagic":         list(records.Columns(magic3, false, records.CSV, "")[5:]),
		"CSVClasses":       list(records.Columns(queens4, true, records.CSV, "")),
		"ParquetSolutions": list(records.Columns(queens4, false, records.Parquet, records.CellColumns)),
		"ParquetMagic":     list(records.Columns(magic3, false, records.Parquet, records.CellColumns)[5:]),
		"Extensions":       records.ExtensionList(),
	})
	if err != nil {
		panic(err) // the help file does not fit its fields: the build is broken
	}
	return out.String()
}

func (x *exportCmd) Run(e *env) error {
	format, err := x.format(e)
	if err != nil {
		return err
	}
	q := query.Question{Ask: query.AskList, Page: query.Page{Limit: -1}}
	if x.Classes {
		q.Ask = query.AskClasses
	}
	if puzzles, err := canon.ParsePuzzles(x.Puzzle); err == nil && len(puzzles) > 1 {
		return x.exportRange(e, puzzles, q, format)
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
	rows, err := records.Stream(e.ctx, t, plan, io.MultiWriter(out, digest), format, !x.NoHeaders, x.dataset(t, plan), func(id, last int64) {
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
	chosen, err := cliparse.ChooseFormat(x.Format, records.CSV, exportFormatList...)
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
	case x.Classes && x.Partition == "symmetry":
		return usagef("a class has no symmetry of its own; with --classes partition by orbit, %s", map[canon.Kind]string{canon.Magic: "cell:R,C", canon.Queens: "row:R"}[t.Puzzle.Kind])
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
	last := t.Record.Solutions
	if x.Classes {
		last = t.Record.Classes
	}
	rows, parts, err := records.ExportPartitioned(e.ctx, t, plan, x.dataset(t, plan), pt, dir.Path(), func(id int64) { bar.Update(id, last) })
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
func (x *exportCmd) dataset(t *query.BoundPuzzle, plan *query.Plan) records.Dataset {
	return release.Read().Dataset(t.Puzzle, plan.Question.Filter.String(t.Puzzle), t.Record.ContentHash, records.CellLayout(x.Cells))
}

// exportRange exports a range of puzzles (queens:4-6) to one file with a
// puzzle column, or with --partition-by puzzle to a folder per puzzle.
func (x *exportCmd) exportRange(e *env, puzzles []canon.Puzzle, q query.Question, format records.Format) error {
	switch {
	case x.Partition != "" && x.Partition != "puzzle":
		return usagef("a range is partitioned by puzzle only; use --partition-by puzzle, or export one puzzle")
	case x.Partition == "" && format == records.Parquet && x.Cells == string(records.CellList):
		return usagef("--parquet-cells list writes one puzzle a file; drop it, or use --partition-by puzzle")
	}
	var parts []records.RangePart
	var hashes []string
	for _, p := range puzzles {
		t, plan, done, err := e.planned(p.String(), x.FilterFlags, q)
		if err != nil {
			return err
		}
		defer done()
		parts = append(parts, records.RangePart{T: t, Plan: plan})
		hashes = append(hashes, p.String()+" "+t.Record.ContentHash)
	}
	if x.Explain {
		for _, part := range parts {
			if err := e.explain(part.T, part.Plan, records.Text); err != nil {
				return err
			}
		}
		return nil
	}
	name := fmt.Sprintf("%s:%d-%d", puzzles[0].Kind, puzzles[0].N, puzzles[len(puzzles)-1].N)
	if x.Partition != "" {
		return x.partitionedByPuzzle(e, parts, format)
	}
	out, err := x.open(e, format)
	if err != nil {
		return err
	}
	defer out.Abort()
	bar := console.NewProgress(e.stderr, "export "+name, "IDs")
	if out.IsTerminal() || (x.Output == "" && console.IsTerminal(e.stdout)) {
		bar.Hide()
	}
	first := parts[0]
	d := release.Read().Dataset(parts[len(parts)-1].T.Puzzle, first.Plan.Question.Filter.String(first.T.Puzzle), strings.Join(hashes, ", "), records.CellColumns)
	d.Range = name
	digest := sha256.New()
	seen := 0
	rows, err := records.StreamRange(e.ctx, parts, io.MultiWriter(out, digest), format, !x.NoHeaders, d, func(id, last int64) {
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
		fmt.Fprintf(e.stderr, "wrote %d rows of %s to %s, sha256 %x\n", rows, name, x.Output, digest.Sum(nil))
	}
	return nil
}

// partitionedByPuzzle writes a range as a Hive-style folder with one
// DIR/puzzle=NAME/part-0.parquet per puzzle, each as the export of that
// puzzle alone writes it.
func (x *exportCmd) partitionedByPuzzle(e *env, parts []records.RangePart, format records.Format) error {
	switch {
	case format != records.Parquet:
		return usagef("--partition-by writes Parquet files; use --format parquet or leave --format out")
	case x.Output == "" || x.Output == "-":
		return usagef("--partition-by writes a folder; name it with --output DIR")
	}
	dir, err := outfile.CreateFolder(x.Output, e.ownFile)
	if err != nil {
		return advice.OutputError(x.Output, err)
	}
	defer dir.Abort()
	var rows int64
	for _, part := range parts {
		folder := filepath.Join(dir.Path(), "puzzle="+part.T.Puzzle.String())
		err = os.Mkdir(folder, 0o755)
		var f *os.File
		if err == nil {
			f, err = os.Create(filepath.Join(folder, "part-0.parquet"))
		}
		if err == nil {
			var n int64
			n, err = records.Stream(e.ctx, part.T, part.Plan, f, records.Parquet, true, x.dataset(part.T, part.Plan), nil)
			rows += n
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}
		if err != nil {
			dir.Abort()
			if e.ctx.Err() != nil {
				return fmt.Errorf("%w; nothing was written", advice.ErrInterrupted)
			}
			return fmt.Errorf("cannot write %s: %w; nothing was written", x.Output, unwrapPath(err))
		}
	}
	if err := dir.Commit(); err != nil {
		return fmt.Errorf("%w; nothing was written", err)
	}
	fmt.Fprintf(e.stderr, "wrote %d rows to %s in %d partitions by puzzle\n", rows, x.Output, len(parts))
	return nil
}
