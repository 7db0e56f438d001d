package main

import (
	"crypto/sha256"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"solcat/query"
)

type exportCmd struct {
	Puzzle    string `arg:"" help:"The puzzle, for example magic:4."`
	Classes   bool   `help:"One row per class (with its matching members) instead of one per solution."`
	Output    string `short:"o" placeholder:"FILE" help:"Write to FILE instead of standard output; the file appears only when complete."`
	Partition string `name:"partition-by" placeholder:"COLUMN" help:"With --format parquet and --output DIR: write a Hive-style folder, one DIR/KEY=VALUE/part-0.parquet per value of orbit, symmetry, cell:R,C (magic) or row:R (queens)."`
	filterFlags
}

func (x *exportCmd) Help() string {
	return `Streams rows in ID order with constant memory. CSV (the default) has a
header row: id, class, orbit, symmetry, then one column per cell (r1c1..
for magic squares; row1.. with the queen's 1-based column for queens).
JSON lines carry the same fields, the cells as "grid" (rows) or "queens".
Parquet (zstd) has typed columns id, class, orbit, symmetry and cells, a
list of int32 read like the text output. With --output the file appears
only when complete, and its SHA-256 is printed on stderr; the same catalog
and arguments always give the same bytes.

Examples:
  solcat export magic:4 --output magic4.csv
  solcat export queens:10 --format jsonl --classes
  solcat export magic:4 --format parquet --output magic4.parquet
  solcat export magic:4 --cell 1,1=1 --format jsonl | jq .grid
  solcat export magic:4 --format parquet --partition-by cell:1,1 --output magic4/`
}

func (x *exportCmd) Run(e *env) error {
	format, err := e.format(query.CSV, query.CSV, query.JSONL, query.Parquet)
	if err != nil {
		return err
	}
	t, f, done, err := e.filtered(x.Puzzle, x.filterFlags)
	if err != nil {
		return err
	}
	defer done()
	if x.Partition != "" {
		return x.partitioned(e, t, f, format)
	}
	rows := 0
	// Rows come in ID order, so the ID reached tells how far the export is,
	// filtered or not. The bar shows only when stdout is not the terminal.
	bar := newProgress(e.stderr, "export "+t.Puzzle.String())
	if x.Output == "" && isTerminal(e.stdout) {
		bar.tty = false
	}
	defer bar.finish()
	tick := func(id, total int64) {
		if rows++; rows%4096 == 0 {
			bar.update(int(id), int(total))
		}
	}
	write := func(out io.Writer) error {
		if x.Classes {
			var w query.RowWriter[query.Class] = query.NewClassWriter(out, format, t.Puzzle, t.Record.Classes)
			if format == query.Parquet {
				w = query.NewParquetClassWriter(out, t.Puzzle)
			}
			if err := t.Classes(e.ctx, f, query.Page{Limit: -1}, func(c query.Class) error { tick(c.ID, t.Record.Classes); return w.Write(c) }); err != nil {
				return err
			}
			return w.Close()
		}
		var w query.RowWriter[query.Solution] = query.NewSolutionWriter(out, format, t.Puzzle)
		if format == query.Parquet {
			w = query.NewParquetSolutionWriter(out, t.Puzzle)
		}
		if err := t.List(e.ctx, f, query.Page{Limit: -1}, func(s query.Solution) error { tick(s.ID, t.Record.Solutions); return w.Write(s) }); err != nil {
			return err
		}
		return w.Close()
	}
	if x.Output == "" {
		return write(e.stdout)
	}
	// The digest lets anyone check that two exports are the same bytes.
	digest := sha256.New()
	err = writeFileAtomically(x.Output, func(out io.Writer) error { return write(io.MultiWriter(out, digest)) })
	if err == nil {
		fmt.Fprintf(e.stderr, "wrote %d rows to %s, sha256 %x\n", rows, x.Output, digest.Sum(nil))
	}
	return err
}

// outputFolder refuses an --output whose folder does not exist.
func outputFolder(path string) error {
	dir := filepath.Dir(path)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return usagef("cannot write %s: folder %s does not exist; create it or choose another --output", path, dir)
	}
	return nil
}

// writeFileAtomically writes through a temporary file in the same folder
// and renames it into place, so a failed or interrupted export leaves no
// partial file behind.
func writeFileAtomically(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	if err := outputFolder(path); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil { // CreateTemp makes it private
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return os.Rename(tmp.Name(), path)
}

// partitioned writes a Hive-style folder of Parquet files, one per value of
// the partition column, through a temporary folder renamed at the end.
func (x *exportCmd) partitioned(e *env, t *query.Target, f query.Filter, format query.Format) error {
	switch {
	case format != query.Parquet:
		return usagef("--partition-by writes Parquet files; add --format parquet")
	case x.Output == "":
		return usagef("--partition-by writes a folder; name it with --output DIR")
	case x.Classes:
		return usagef("--partition-by splits solutions; drop --classes")
	}
	pt, err := query.ParsePartition(t.Puzzle, x.Partition)
	if err != nil {
		return err
	}
	dir := filepath.Clean(x.Output)
	parent := filepath.Dir(dir)
	if err := outputFolder(dir); err != nil {
		return err
	}
	if _, err := os.Stat(dir); err == nil {
		return usagef("%s already exists; a partitioned export writes a new folder: remove it or choose another --output", dir)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", dir, err)
	}
	defer os.RemoveAll(tmp)
	type part struct {
		file *os.File
		w    query.RowWriter[query.Solution]
		rows int64
	}
	parts := map[string]*part{}
	bar := newProgress(e.stderr, "export "+t.Puzzle.String())
	defer bar.finish()
	var rows int64
	err = t.List(e.ctx, f, query.Page{Limit: -1}, func(s query.Solution) error {
		folder := pt.Folder(s)
		pa := parts[folder]
		if pa == nil {
			if err := os.Mkdir(filepath.Join(tmp, folder), 0o755); err != nil {
				return err
			}
			file, err := os.Create(filepath.Join(tmp, folder, "part-0.parquet"))
			if err != nil {
				return err
			}
			pa = &part{file: file, w: query.NewParquetSolutionWriter(file, t.Puzzle)}
			parts[folder] = pa
		}
		pa.rows++
		if rows++; rows%4096 == 0 {
			bar.update(int(s.ID), int(t.Record.Solutions))
		}
		return pa.w.Write(s)
	})
	for _, pa := range parts {
		if cerr := pa.w.Close(); err == nil {
			err = cerr
		}
		if cerr := pa.file.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil { // MkdirTemp makes it private
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		return fmt.Errorf("cannot write %s: %w", dir, err)
	}
	fmt.Fprintf(e.stderr, "wrote %d rows to %s in %d partitions by %s\n", rows, dir, len(parts), pt.Key)
	return nil
}
