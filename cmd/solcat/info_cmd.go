package main

import (
	"database/sql"
	"fmt"
	"slices"
	"text/tabwriter"

	"solcat/canon"
	"solcat/catalog"
	"solcat/enumerate"
	"solcat/query"
)

type infoCmd struct{}

func (i *infoCmd) Help() string {
	return `For each puzzle: how it is stored, solutions, classes, classes by orbit
size (1/2/4/8), whether every count equals the published value, and the
build time. Stored "solutions": every solution is a row; "classes": only the
canonical forms (magic:5), queries expand each class into its 8 members;
"counts": the counts alone.

Examples:
  solcat info
  solcat info --format json | jq '.[] | select(.puzzle == "queens:8")'`
}

// infoRecord is the JSON shape of one puzzle in info and build.
type infoRecord struct {
	catalog.Record
	KnownSolutions *int64 `json:"known_solutions"`
	KnownClasses   *int64 `json:"known_classes"`
}

// buildingJSON is an unfinished stored build in info's JSON.
type buildingJSON struct {
	Puzzle        string `json:"puzzle"`
	Storage       string `json:"storage"` // "building"
	Percent       int    `json:"percent"`
	ClassesDone   int64  `json:"classes_done"`
	SolutionsDone int64  `json:"solutions_done"`
	StartedAt     string `json:"started_at"`
	UpdatedAt     string `json:"updated_at"`
}

// shardJSON is a shard of a split build in info's JSON.
type shardJSON struct {
	Puzzle  string `json:"puzzle"`
	Storage string `json:"storage"` // "shard"
	Shard   int    `json:"shard"`
	Of      int    `json:"of"`
	Units   int    `json:"units"`
	Done    bool   `json:"done"`
}

func infoRecords(recs []catalog.Record) []infoRecord {
	out := make([]infoRecord, 0, len(recs))
	for _, r := range recs {
		ir := infoRecord{Record: r}
		if r.KnownSolutions.Valid {
			ir.KnownSolutions = &r.KnownSolutions.Int64
		}
		if r.KnownClasses.Valid {
			ir.KnownClasses = &r.KnownClasses.Int64
		}
		out = append(out, ir)
	}
	return out
}

func (i *infoCmd) Run(e *env) error {
	format, err := e.format(query.Text, query.Text, query.JSON)
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
	// A stored magic:5 build has no builds row while it searches (phase 1):
	// its sort folder says how far it is.
	searching, searchUnits := -1, len(enumerate.Magic5Units())
	if done, ok := catalog.SpillUnitsDone(e.cli.DB + ".sort"); ok && !slices.ContainsFunc(builds, func(b catalog.Building) bool { return b.Puzzle == "magic:5" }) {
		searching = done
	}
	if format == query.JSON {
		// Puzzles first, then unfinished builds and shards, told apart by storage.
		var out []any
		for _, r := range infoRecords(recs) {
			out = append(out, r)
		}
		for _, b := range builds {
			out = append(out, buildingJSON{b.Puzzle, "building", b.Percent(), b.ClassesDone, b.SolutionsDone, b.StartedAt, b.UpdatedAt})
		}
		for _, s := range shards {
			out = append(out, shardJSON{s.Puzzle, "shard", s.Shard, s.Of, s.Units, s.Done})
		}
		if searching >= 0 {
			out = append(out, buildingJSON{Puzzle: "magic:5", Storage: "building", Percent: 0})
		}
		if out == nil {
			out = []any{}
		}
		return writeJSON(e.stdout, out)
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
		if running && len(builds) == 0 && searching < 0 {
			fmt.Fprintf(e.stdout, "a build is writing this catalog: %s\n", writer)
		}
	}()
	if len(recs) == 0 {
		if len(shards) > 0 || len(builds) > 0 || searching >= 0 || running {
			return nil
		}
		_, err := fmt.Fprintf(e.stdout, "%s holds no puzzles yet; run 'solcat build'\n", e.cli.DB)
		return err
	}
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "puzzle\tstored\tsolutions\tclasses\torbit 1/2/4/8\tOEIS\tbuild\tworkers\tcontent\t")
	for _, r := range recs {
		check := "no"
		if matchesPublished(r) {
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

// matchesPublished reports whether a record's counts, and the published
// counts it recorded, equal the published values solcat knows: a record
// changed by hand does not say "matches".
func matchesPublished(r catalog.Record) bool {
	p, err := canon.ParsePuzzle(r.Name)
	if err != nil {
		return false
	}
	known, ok := enumerate.KnownCounts(p)
	return ok && r.Verified && known.Mismatch(r.Solutions, r.Classes, r.Orbits()) == "" &&
		r.KnownSolutions == sql.NullInt64{Int64: known.Solutions, Valid: true} && r.KnownClasses == sql.NullInt64{Int64: known.Classes, Valid: true}
}
