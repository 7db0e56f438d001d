package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"text/tabwriter"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/catalog/catfile"
	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/help"
	"solcat/query/records"
)

type mergeCmd struct {
	Out    string   `arg:"" name:"out" help:"Catalog to write the merged puzzles into (created if needed)."`
	Shards []string `arg:"" name:"shard" help:"Shard catalogs made by 'solcat build PUZZLE [--count-only] --shard I/K'."`
	Force  bool     `help:"Replace what the output already holds of the merged puzzles (otherwise the merge is refused)."`
	cliparse.FormatFlags
}

func (m *mergeCmd) Help() string { return help.Text("merge") }

func (m *mergeCmd) Run(e *env) error {
	switch m.Out {
	case "":
		return usagef("the output path is empty; name the catalog file to write the merge into")
	case "-":
		return usagef("merge writes a catalog file, not standard output; name the file to write")
	}
	for _, path := range m.Shards {
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			return usagef("the shard %s does not exist; give the files made by 'solcat build PUZZLE [--count-only] --shard I/K'", path)
		}
	}
	for _, path := range m.Shards {
		if catfile.IsOwnFile(path, m.Out) {
			return usagef("the output %s is the shard %s or one of its files; write the merge to a new file", m.Out, path)
		}
	}
	format := m.Format
	merged, err := builder.MergeFiles(e.ctx, m.Out, m.Shards, m.Force, e.Holder(nil))
	var kept, counts []builder.Merged
	for _, r := range merged {
		if r.Count != nil {
			counts = append(counts, r)
		} else {
			kept = append(kept, r)
		}
	}
	if format != records.Text {
		if len(kept) == 0 && len(counts) > 0 {
			p := records.NewPrinter(e.stdout, format, !m.NoHeaders)
			for _, r := range counts {
				p.Write(countUnitsObject(r))
			}
			if perr := p.Close(); err == nil {
				err = perr
			}
			return err
		}
		p := records.NewPrinter(e.stdout, format, !m.NoHeaders).Columns(append(records.RecordObject(catalog.Record{}), records.Field{Name: "shards"}))
		for _, r := range kept {
			p.Write(append(records.RecordObject(r.Record), records.Field{Name: "shards", Value: r.Shards}))
		}
		for _, r := range counts {
			fmt.Fprintln(e.stderr, "solcat: "+countUnitsLine(r))
		}
		if perr := p.Close(); err == nil {
			err = perr
		}
		return err
	}
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	for _, r := range kept {
		fmt.Fprintf(w, "%s\t%s, %s\tmatches OEIS\tmerged from %d shards\n", r.Record.Name, canon.Plural(r.Record.Solutions, "solution"), canon.Plural(r.Record.Classes, "class"), r.Shards)
	}
	w.Flush()
	for _, r := range counts {
		fmt.Fprintln(e.stdout, countUnitsLine(r))
	}
	return err
}

// countUnitsLine says what a merge gathered of a split count, and what
// finishes it.
func countUnitsLine(r builder.Merged) string {
	c := r.Count
	line := fmt.Sprintf("%s %s: %s of %s units, from %s", c.Puzzle, advice.CountWhat(c.Question), canon.Thousands(int64(c.Saved)), canon.Thousands(int64(c.Units)), canon.Plural(int64(r.Shards), "file"))
	if left := c.Units - c.Saved; left > 0 {
		line += fmt.Sprintf(" (%s in none of them)", canon.Plural(int64(left), "unit"))
	}
	return line + "; the same count without --shard on this catalog counts what is left and gives the total"
}

// countUnitsObject is countUnitsLine's record, for json, jsonl and csv.
func countUnitsObject(r builder.Merged) records.Object {
	c := r.Count
	return records.Obj("puzzle", c.Puzzle, "count", advice.CountWhat(c.Question), "units", c.Units, "saved", c.Saved, "shards", r.Shards)
}

func (m *mergeCmd) interrupted() error {
	return fmt.Errorf("%w; a merge writes each puzzle whole or not at all: run the same command again", advice.ErrInterrupted)
}
