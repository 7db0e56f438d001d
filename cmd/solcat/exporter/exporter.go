// Package exporter writes an export's rows where the user asked: standard
// output or one file that appears only when complete (with its SHA-256), a
// Hive-style folder of Parquet partitions, or a range of puzzles in one file
// or one folder each. It also fills export's help from the writers' lists.
package exporter

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/dustin/go-humanize"

	"solcat/canon"
	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/console"
	"solcat/cmd/solcat/outfile"
	"solcat/cmd/solcat/release"
	"solcat/query"
	"solcat/query/records"
)

// Formats are the formats export writes, in the order help lists them.
var Formats = []records.Format{records.CSV, records.JSON, records.JSONL, records.Parquet}

// FormatNames is the formats for the command's summary: "CSV, JSON, JSON
// lines or Parquet".
func FormatNames() string {
	names := map[records.Format]string{records.CSV: "CSV", records.JSON: "JSON", records.JSONL: "JSON lines", records.Parquet: "Parquet"}
	var out []string
	for _, f := range Formats {
		out = append(out, names[f])
	}
	return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
}

// Help is export's help template with the columns and file extensions
// filled in from the lists the writers use, so help cannot drift from the
// files.
func Help(tmpl string) string {
	queens4, magic3 := canon.Puzzle{Kind: canon.Queens, N: 4}, canon.Puzzle{Kind: canon.Magic, N: 3}
	list := func(cols []string) string { return strings.Join(cols, ", ") }
	var out strings.Builder
	err := template.Must(template.New("export").Parse(tmpl)).Execute(&out, map[string]string{
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

// Export is one export's destination and shape.
type Export struct {
	Output    string // a file, a folder (with Partition), or "" or "-": standard output
	Format    records.Format
	Headers   bool
	Classes   bool
	Partition string // the --partition-by column, or ""
	Cells     records.CellLayout
	Stdout    io.Writer
	Stderr    io.Writer
	OwnFile   func(path string) bool // the catalog's own files, never written
}

// ChooseFormat is flag (--format, already checked), or else the format the
// output file's name asks for, or CSV; a flag that contradicts the name is
// refused. A partitioned export writes Parquet.
func ChooseFormat(flag records.Format, output, partition string) (records.Format, error) {
	named := records.Format("")
	if output != "" && output != "-" && partition == "" {
		named = records.FormatOfFile(output)
	}
	if flag == "" && partition != "" {
		return records.Parquet, nil
	}
	return cliparse.FileFormat(flag, records.CSV, named, output)
}

// Dataset describes an export of one puzzle for its Parquet metadata.
func (x Export) Dataset(t *query.BoundPuzzle, plan *query.Plan) records.Dataset {
	return release.Read().Dataset(t.Puzzle, plan.Question.Filter.String(t.Puzzle), t.Record.ContentHash, x.Cells)
}

// One writes one puzzle's rows: to one file or standard output, or with
// Partition to a folder of partitions.
func (x Export) One(ctx context.Context, t *query.BoundPuzzle, plan *query.Plan) error {
	if x.Partition != "" {
		return x.partitioned(ctx, t, plan)
	}
	return x.toFile(ctx, t.Puzzle.String(), "", func(w io.Writer, progress func(id, last int64)) (int64, error) {
		return records.Stream(ctx, t, plan, w, x.Format, x.Headers, x.Dataset(t, plan), progress)
	})
}

// Range writes a range of puzzles (queens:4-6, named name) to one file with
// a puzzle column, or partitioned by puzzle to a folder per puzzle.
func (x Export) Range(ctx context.Context, name string, parts []records.RangePart) error {
	switch {
	case x.Partition != "" && x.Partition != "puzzle":
		return advice.Usagef("a range is partitioned by puzzle only; use --partition-by puzzle, or export one puzzle")
	case x.Partition == "" && x.Format == records.Parquet && x.Cells == records.CellList:
		return advice.Usagef("--parquet-cells list writes one puzzle a file; drop it, or use --partition-by puzzle")
	case x.Partition != "":
		return x.byPuzzle(ctx, parts)
	}
	var hashes []string
	for _, part := range parts {
		hashes = append(hashes, part.T.Puzzle.String()+" "+part.T.Record.ContentHash)
	}
	first := parts[0]
	d := release.Read().Dataset(parts[len(parts)-1].T.Puzzle, first.Plan.Question.Filter.String(first.T.Puzzle), strings.Join(hashes, ", "), records.CellColumns)
	d.Range = name
	return x.toFile(ctx, name, " of "+name, func(w io.Writer, progress func(id, last int64)) (int64, error) {
		return records.StreamRange(ctx, parts, w, x.Format, x.Headers, d, progress)
	})
}

// toFile opens the destination, writes the rows through write with a
// progress bar (shown only when the rows do not go to the terminal) and a
// digest, and commits the file whole.
func (x Export) toFile(ctx context.Context, label, of string, write func(io.Writer, func(id, last int64)) (int64, error)) error {
	out, err := x.open()
	if err != nil {
		return err
	}
	defer out.Abort()
	// Rows come in ID order, so the ID reached tells how far the export is.
	bar := console.NewProgress(x.Stderr, "export "+label, "IDs")
	if out.IsTerminal() || (x.Output == "" && console.IsTerminal(x.Stdout)) {
		bar.Hide()
	}
	// The digest lets anyone check that two exports are the same bytes.
	digest := sha256.New()
	seen := 0
	rows, err := write(io.MultiWriter(out, digest), func(id, last int64) {
		if seen++; seen%4096 == 0 {
			bar.Update(id, last)
		}
	})
	bar.Finish()
	if err == nil {
		err = out.Commit()
	}
	if err != nil {
		return failed(ctx, out, err)
	}
	if x.Output != "" && x.Output != "-" {
		fmt.Fprintf(x.Stderr, "wrote %s rows%s to %s, sha256 %x\n", humanize.Comma(rows), of, x.Output, digest.Sum(nil))
	}
	return nil
}

// failed says what an export that stopped left behind: nothing, when it
// wrote to a temporary file.
func failed(ctx context.Context, out *outfile.File, err error) error {
	out.Abort()
	left := "nothing was written"
	if out.Direct() {
		left = "the rows before it were written"
	}
	if ctx.Err() != nil {
		return fmt.Errorf("%w; %s", advice.ErrInterrupted, left)
	}
	return fmt.Errorf("%w; %s", err, left)
}

// open opens the export's destination: standard output, or Output.
func (x Export) open() (*outfile.File, error) {
	terminal := advice.Usagef("Parquet is binary and standard output is a terminal; write it to a file with --output FILE.parquet, or pipe it")
	if x.Output == "" || x.Output == "-" {
		out := outfile.Stdout(x.Stdout)
		if x.Format == records.Parquet && out.IsTerminal() {
			return nil, terminal
		}
		return out, nil
	}
	out, err := outfile.Create(x.Output, x.Stdout, x.OwnFile)
	if err != nil {
		return nil, advice.OutputError(x.Output, err)
	}
	if x.Format == records.Parquet && out.IsTerminal() {
		out.Abort()
		return nil, terminal
	}
	return out, nil
}

// folder checks that a partitioned export can be written and creates its
// temporary folder.
func (x Export) folder() (*outfile.Folder, error) {
	switch {
	case x.Format != records.Parquet:
		return nil, advice.Usagef("--partition-by writes Parquet files; use --format parquet or leave --format out")
	case x.Output == "" || x.Output == "-":
		return nil, advice.Usagef("--partition-by writes a folder; name it with --output DIR")
	}
	dir, err := outfile.CreateFolder(x.Output, x.OwnFile)
	if err != nil {
		return nil, advice.OutputError(x.Output, err)
	}
	return dir, nil
}

// commit renames a partitioned export's folder into place, or says what a
// failed one left: nothing.
func (x Export) commit(ctx context.Context, dir *outfile.Folder, err error) error {
	if err != nil {
		err = fmt.Errorf("cannot write %s: %w", x.Output, unwrapPath(err))
	}
	if err == nil {
		err = dir.Commit()
	}
	if err != nil {
		dir.Abort()
		if ctx.Err() != nil {
			return fmt.Errorf("%w; nothing was written", advice.ErrInterrupted)
		}
		return fmt.Errorf("%w; nothing was written", err)
	}
	return nil
}

// partitioned writes a Hive-style folder of Parquet files, one per value of
// the partition column, through a temporary folder renamed at the end.
func (x Export) partitioned(ctx context.Context, t *query.BoundPuzzle, plan *query.Plan) error {
	if x.Classes && x.Partition == "symmetry" {
		return advice.Usagef("a class has no symmetry of its own; with --classes partition by orbit, %s", map[canon.Kind]string{canon.Magic: "cell:R,C", canon.Queens: "row:R"}[t.Puzzle.Kind])
	}
	pt, err := query.ParsePartition(t.Puzzle, x.Partition)
	if err != nil {
		return err
	}
	dir, err := x.folder()
	if err != nil {
		return err
	}
	defer dir.Abort()
	bar := console.NewProgress(x.Stderr, "export "+t.Puzzle.String(), "IDs")
	last := t.Record.Solutions
	if x.Classes {
		last = t.Record.Classes
	}
	rows, parts, err := records.ExportPartitioned(ctx, t, plan, x.Dataset(t, plan), pt, dir.Path(), func(id int64) { bar.Update(id, last) })
	bar.Finish()
	if err := x.commit(ctx, dir, err); err != nil {
		return err
	}
	fmt.Fprintf(x.Stderr, "wrote %s rows to %s in %d partitions by %s\n", humanize.Comma(rows), x.Output, parts, pt.Key)
	return nil
}

// byPuzzle writes a range as a Hive-style folder with one
// DIR/puzzle=NAME/part-0.parquet per puzzle, each as the export of that
// puzzle alone writes it.
func (x Export) byPuzzle(ctx context.Context, parts []records.RangePart) error {
	dir, err := x.folder()
	if err != nil {
		return err
	}
	defer dir.Abort()
	var rows int64
	for _, part := range parts {
		if err = x.puzzleFolder(ctx, dir.Path(), part, &rows); err != nil {
			break
		}
	}
	if err := x.commit(ctx, dir, err); err != nil {
		return err
	}
	fmt.Fprintf(x.Stderr, "wrote %s rows to %s in %d partitions by puzzle\n", humanize.Comma(rows), x.Output, len(parts))
	return nil
}

// puzzleFolder writes one puzzle's partition of a range, adding its rows.
func (x Export) puzzleFolder(ctx context.Context, dir string, part records.RangePart, rows *int64) error {
	folder := filepath.Join(dir, "puzzle="+part.T.Puzzle.String())
	if err := os.Mkdir(folder, 0o755); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(folder, "part-0.parquet"))
	if err != nil {
		return err
	}
	n, err := records.Stream(ctx, part.T, part.Plan, f, records.Parquet, true, x.Dataset(part.T, part.Plan), nil)
	*rows += n
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
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
