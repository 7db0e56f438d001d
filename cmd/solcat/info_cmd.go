package main

import (
	"fmt"
	"slices"
	"text/tabwriter"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/build"
	"solcat/enumerate"
	"solcat/query"
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
	builds, err := cat.Builds(e.ctx)
	if err != nil {
		return err
	}
	shards, err := cat.Shards(e.ctx)
	if err != nil {
		return err
	}
	writer, running := catalog.RunningWriter(e.cli.DB)
	var counting []build.Unfinished
	names, err := cat.Counting(e.ctx)
	if err != nil {
		return err
	}
	for _, name := range names {
		p, err := canon.ParsePuzzle(name)
		if err != nil {
			continue
		}
		if u, ok, err := build.Status(e.ctx, cat, e.cli.DB, p); err != nil {
			return err
		} else if ok {
			counting = append(counting, u)
		}
	}
	// A stored magic:5 build has no builds row while it searches (phase 1):
	// its sort folder says how far it is.
	searching, searchUnits := -1, len(enumerate.Magic5Units())
	if done, ok := catalog.SpillUnitsDone(e.cli.DB + ".sort"); ok && !slices.ContainsFunc(builds, func(b catalog.Building) bool { return b.Puzzle == "magic:5" }) {
		searching = done
	}
	if format != query.Text {
		// Puzzles first, then (but in CSV) unfinished builds and shards,
		// told apart by storage.
		out := query.NewPrinter(e.stdout, format, !i.NoHeaders)
		for _, r := range recs {
			out.Write(query.RecordObject(r))
		}
		if format != query.CSV {
			for _, b := range builds {
				out.Write(query.O("puzzle", b.Puzzle, "storage", "building", "running", writer.Building(b.Puzzle), "percent", b.Percent(), "classes_done", b.ClassesDone, "solutions_done", b.SolutionsDone, "started_at", b.StartedAt, "updated_at", b.UpdatedAt))
			}
			for _, s := range shards {
				out.Write(query.O("puzzle", s.Puzzle, "storage", string(catalog.StorageShard), "shard", s.Shard, "of", s.Of, "units", s.Units, "done", s.Done))
			}
			if searching >= 0 {
				out.Write(query.O("puzzle", "magic:5", "storage", "building", "running", writer.Building("magic:5"), "percent", 100*searching/searchUnits))
			}
			for _, u := range counting {
				out.Write(query.O("puzzle", u.Puzzle, "storage", "counting", "running", u.Running, "percent", u.Percent, "units_done", u.Done, "units", u.Total))
			}
		}
		return out.Close()
	}
	defer func() {
		for _, s := range shards {
			state := "finished"
			if !s.Done {
				state = "not finished: run its build again"
			}
			fmt.Fprintf(e.stdout, "%s: shard %d/%d (%d work units, %s); combine the shards with 'solcat merge OUT SHARD...'\n", s.Puzzle, s.Shard, s.Of, s.Units, state)
		}
		for _, b := range builds {
			if writer.Building(b.Puzzle) {
				fmt.Fprintf(e.stdout, "%s is being built: %d%% saved (started %s, last unit saved %s), by %s\n", b.Puzzle, b.Percent(), b.StartedAt, b.UpdatedAt, writer)
				continue
			}
			fmt.Fprintf(e.stdout, "%s is unfinished: its build stopped with %d%% saved (started %s, last unit saved %s); 'solcat build %s' resumes it\n",
				b.Puzzle, b.Percent(), b.StartedAt, b.UpdatedAt, b.Puzzle)
		}
		if searching >= 0 && writer.Building("magic:5") {
			fmt.Fprintf(e.stdout, "magic:5 is being built: its class search is %d%% done (%d of %d units), then the classes are written, by %s\n",
				100*searching/searchUnits, searching, searchUnits, writer)
		} else if searching >= 0 {
			fmt.Fprintf(e.stdout, "magic:5 is unfinished: its class search is %d%% done (%d of %d units), then the classes are written; 'solcat build magic:5' resumes it\n",
				100*searching/searchUnits, searching, searchUnits)
		}
		for _, u := range counting {
			p, _ := canon.ParsePuzzle(u.Puzzle)
			fmt.Fprintln(e.stdout, unfinishedError(p, u))
		}
		if running && len(builds) == 0 && searching < 0 && len(counting) == 0 {
			fmt.Fprintf(e.stdout, "a build is writing this catalog: %s\n", writer)
		}
	}()
	if len(recs) == 0 {
		if len(shards) > 0 || len(builds) > 0 || searching >= 0 || len(counting) > 0 || running {
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
		if query.MatchesPublished(r) {
			check = "matches"
		}
		content := "-"
		if len(r.ContentHash) >= 16 {
			content = r.ContentHash[:16] // the full SHA-256 is in --format json
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d/%d/%d/%d\t%s\t%.2fs\t%d\t%s\t\n", r.Name, r.Storage, r.Solutions, r.Classes,
			r.Orbit1, r.Orbit2, r.Orbit4, r.Orbit8, check, r.BuildSeconds, r.Workers, content)
	}
	return w.Flush()
}
