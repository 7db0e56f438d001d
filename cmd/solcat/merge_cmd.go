package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"text/tabwriter"

	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/query/records"
)

type mergeCmd struct {
	Out    string   `arg:"" name:"out" help:"Catalog to write the merged puzzles into (created if needed)."`
	Shards []string `arg:"" name:"shard" help:"Shard catalogs made by 'solcat build PUZZLE [--count-only] --shard I/K'."`
	Force  bool     `help:"Replace what the output already holds of the merged puzzles (otherwise the merge is refused)."`
	formatFlags
}

func (m *mergeCmd) Help() string {
	return `Combines the shard catalogs of a split build into one catalog. Every
shard of the split must be given once and be finished, all made by the same
solver with the same split; otherwise nothing is written. Count shards are
summed; stored shards are copied in solution ID order and their content
hash is computed anew, so the result equals a build in one process. The
merged counts are checked against the published values like any build.
An output that already holds a merged puzzle (built, unfinished or a
shard) is refused unless --force is given; a new output file is removed
again if the merge fails.

Examples:
  solcat --db s1.db build queens:20 --count-only --shard 1/4   # ... up to 4/4
  solcat merge queens20.db s1.db s2.db s3.db s4.db
  solcat --db q1.db build queens:16 --shard 1/2                # stored
  solcat merge all.db shards/*.db`
}

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
		if catalog.IsOwnFile(path, m.Out) {
			return usagef("the output %s is the shard %s or one of its files; write the merge to a new file", m.Out, path)
		}
	}
	format, err := m.format()
	if err != nil {
		return err
	}
	// Check every shard before writing anything.
	plan, err := builder.PlanMerge(e.ctx, m.Shards)
	if err != nil {
		return err
	}
	_, statErr := os.Stat(m.Out)
	isNew := errors.Is(statErr, fs.ErrNotExist)
	if !isNew && !m.Force {
		// Refused before the output is opened for writing, which touches it.
		if ro, err := catalog.Open(e.ctx, m.Out); err == nil {
			err = plan.Clear(e.ctx, ro, m.Out, false)
			ro.Close()
			if err != nil {
				return err
			}
		}
	}
	out, err := catalog.Create(e.ctx, m.Out, e.holder(plan.Puzzles()))
	if err != nil {
		if isNew && e.ctx.Err() != nil {
			catalog.Remove(m.Out) // interrupted while it was being made
		}
		return err
	}
	defer out.Close()
	err = plan.Clear(e.ctx, out, m.Out, m.Force)
	var merged []builder.Merged
	if err == nil {
		merged, err = plan.Into(e.ctx, out)
	}
	if err != nil && isNew && len(merged) == 0 {
		out.Close()
		catalog.Remove(m.Out) // made for this merge, which wrote nothing
		return err
	}
	if format != records.Text {
		p := records.NewPrinter(e.stdout, format, !m.NoHeaders)
		for _, r := range merged {
			p.Write(append(records.RecordObject(r.Record), records.Field{Name: "shards", Value: r.Shards}))
		}
		if perr := p.Close(); err == nil {
			err = perr
		}
		return err
	}
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	for _, r := range merged {
		fmt.Fprintf(w, "%s\t%d solutions, %d classes\tmatches OEIS\tmerged from %d shards\n", r.Record.Name, r.Record.Solutions, r.Record.Classes, r.Shards)
	}
	w.Flush()
	return err
}
