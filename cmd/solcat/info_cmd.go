package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/query/records"
	"solcat/query/verify"
)

type infoCmd struct {
	formatFlags
}

func (i *infoCmd) Help() string {
	return `For each puzzle: how it is stored, solutions, classes, classes by orbit
size (1/2/4/8), whether every count equals the published value, and the
build time. Stored "solutions": every solution is a row; "classes": only the
canonical forms (magic:5, queens:18 and 19), queries expand each class into
its members; "counts": the counts alone.

Examples:
  solcat info
  solcat info --format json | jq '.[] | select(.puzzle == "queens:8")'
  solcat info --format csv`
}

func (i *infoCmd) Run(e *env) error {
	format, err := i.format()
	if err != nil {
		return err
	}
	cat, err := e.open("")
	if err != nil {
		return err
	}
	defer cat.Close()
	recs, err := cat.Puzzles(e.ctx)
	if err != nil {
		return err
	}
	shards, err := cat.Shards(e.ctx)
	if err != nil {
		return err
	}
	underway, err := builder.UnderWay(e.ctx, cat, e.cli.DB)
	if err != nil {
		return err
	}
	writer, running := catalog.RunningWriter(e.cli.DB)
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
			for _, s := range shards {
				left = append(left, fmt.Sprintf("%s (shard %d/%d)", s.Puzzle, s.Shard, s.Of))
			}
			for _, u := range underway {
				left = append(left, u.Puzzle+" (unfinished)")
			}
			if len(left) > 0 {
				fmt.Fprintf(e.stderr, "solcat: not in the CSV: %s; 'solcat info' or --format json lists them\n", strings.Join(left, ", "))
			}
			return out.Close()
		}
		for _, s := range shards {
			o := records.Obj("puzzle", s.Puzzle, "storage", string(catalog.StorageShard), "shard", s.Shard, "of", s.Of, "units", s.Units, "done", s.Done)
			if !s.Done {
				units, err := cat.DoneUnits(e.ctx, s.Puzzle)
				if err != nil {
					return err
				}
				o = append(o, records.Field{Name: "units_done", Value: len(units)})
			}
			out.Write(o)
		}
		for _, u := range underway {
			out.Write(unfinishedObject(u))
		}
		return out.Close()
	}
	defer func() {
		for _, s := range shards {
			if !s.Done {
				state, err := shardProgress(e, cat, s)
				if err != nil {
					state = err.Error()
				}
				fmt.Fprintf(e.stdout, "%s: shard %d/%d, unfinished: %s\n", s.Puzzle, s.Shard, s.Of, state)
				continue
			}
			fmt.Fprintf(e.stdout, "%s: shard %d/%d (%d work units, finished); combine the shards with 'solcat merge OUT SHARD...'\n", s.Puzzle, s.Shard, s.Of, s.Units)
		}
		for _, u := range underway {
			p, _ := canon.ParsePuzzle(u.Puzzle)
			fmt.Fprintln(e.stdout, unfinishedError(p, u))
		}
		if running && len(underway) == 0 {
			fmt.Fprintf(e.stdout, "a build is writing this catalog: %s\n", writer)
		}
	}()
	if len(recs) == 0 {
		if len(shards) > 0 || len(underway) > 0 || running {
			return nil
		}
		_, err := fmt.Fprintf(e.stdout, "%s holds no puzzles yet; run 'solcat build'\n", e.cli.DB)
		return err
	}
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	if !i.NoHeaders {
		fmt.Fprintln(w, "puzzle\tstored\tsolutions\tclasses\torbit 1/2/4/8\tOEIS\tbuild\tworkers\tcontent\t")
	}
	for _, r := range recs {
		check := "no"
		if verify.MatchesPublished(r) {
			check = "matches"
		}
		content := "-"
		if len(r.ContentHash) >= 16 {
			content = r.ContentHash[:16] // the full SHA-256 is in --format json
		}
		workers := "-" // merged from shards built elsewhere
		if r.Workers > 0 {
			workers = fmt.Sprint(r.Workers)
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d/%d/%d/%d\t%s\t%.2fs\t%s\t%s\t\n", r.Name, r.Storage, r.Solutions, r.Classes,
			r.Orbit1, r.Orbit2, r.Orbit4, r.Orbit8, check, r.BuildSeconds, workers, content)
	}
	return w.Flush()
}

// unfinishedObject is an unfinished build as info's JSON gives it.
func unfinishedObject(u builder.Unfinished) records.Object {
	switch {
	case u.Stored != nil:
		b := u.Stored
		return records.Obj("puzzle", u.Puzzle, "storage", "building", "running", u.Running, "percent", u.Percent, "classes_done", b.ClassesDone, "solutions_done", b.SolutionsDone, "started_at", b.StartedAt, "updated_at", b.UpdatedAt)
	case u.CountOnly:
		return records.Obj("puzzle", u.Puzzle, "storage", "counting", "running", u.Running, "percent", u.Percent, "units_done", u.Done, "units", u.Total)
	}
	return records.Obj("puzzle", u.Puzzle, "storage", "building", "running", u.Running, "percent", u.Percent)
}
