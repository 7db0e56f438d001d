package main

import (
	"fmt"
	"slices"
	"strings"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/query/records"
	"solcat/query/verify"
)

type verifyCmd struct {
	Puzzles []string `arg:"" optional:"" name:"puzzle" predictor:"puzzle" help:"Puzzles to check (default: every puzzle in the catalog)."`
	formatFlags
}

func (v *verifyCmd) Help() string {
	return `Re-checks the catalog from its tables: every stored solution obeys the
puzzle's rules, every canonical form, class ID and symmetry is right, every
class has as many members as its orbit size, the counts equal the record and
the published values, the content hash equals the one recorded at build
time, and SQLite's integrity check passes. Each problem is reported with the
solution or class ID; the exit status is 1 if there is any.

It also compares the lookup tables SQL users join with (block_slots,
symmetries, properties) with solcat's definitions, each puzzle's record
with its tables, its solutions view with its blocks, and the builds table
with the build tables it stands for.

With --format json it prints one object: {"integrity": SQLite's answer,
"lookups": [problems of the lookup tables], "problems": [the catalog's
own], "puzzles": [{"puzzle", "storage", "solutions", "classes",
"content_hash", "ok", "problems": [at most 20 lines], "problem_count"}]}.

Examples:
  solcat verify
  solcat verify queens:8 magic:4
  solcat verify --format json | jq '.puzzles[] | select(.ok | not)'`
}

func (v *verifyCmd) Run(e *env) error {
	format, err := v.format()
	if err != nil {
		return err
	}
	var names []string
	for _, name := range v.Puzzles {
		ps, err := canon.ParsePuzzles(name)
		if err != nil {
			return err
		}
		for _, p := range ps {
			names = append(names, p.String())
		}
	}
	cat, err := e.open("")
	if err != nil {
		return err
	}
	defer cat.Close()
	var recs []catalog.Record
	for _, name := range names {
		rec, ok, err := cat.Puzzle(e.ctx, name)
		if err != nil {
			return catalog.Describe(e.cli.DB, err)
		}
		if !ok {
			p, _ := canon.ParsePuzzle(name)
			return notBuilt(e, cat, p)
		}
		recs = append(recs, rec)
	}
	tell := func(string) {}
	if format == records.Text {
		tell = func(line string) { fmt.Fprintln(e.stdout, line) }
	}
	report, err := verify.Catalog(e.ctx, cat, recs, tell)
	if err != nil {
		return errInterrupted
	}
	if names == nil { // the whole catalog: the work saved by unfinished counts too
		saved, err := builder.SavedWorkProblems(e.ctx, cat)
		if err != nil {
			return catalog.Describe(e.cli.DB, err)
		}
		for _, problem := range saved {
			tell("catalog: " + problem)
		}
		report.Problems = append(report.Problems, saved...)
	}
	if err := printVerify(e, format, !v.NoHeaders, report); err != nil {
		return err
	}
	total, damaged := report.Total(), report.Damaged()
	misnamed := slices.ContainsFunc(report.Puzzles, func(p verify.PuzzleReport) bool {
		q, err := canon.ParsePuzzle(p.Record.Name)
		return err == nil && q.String() != p.Record.Name
	})
	switch {
	case total == 0:
		return nil
	case report.Integrity != "ok" || len(report.Lookups) > 0 || misnamed:
		// SQLite's own structures, or the lookup tables no build writes
		// again, are damaged, or a record a build cannot replace (it
		// replaces the record of the puzzle's own name): writing more into
		// the file is no cure. Every puzzle is built anew elsewhere.
		all := make([]catalog.Record, 0, len(report.Puzzles))
		for _, p := range report.Puzzles {
			r := p.Record
			if q, err := canon.ParsePuzzle(r.Name); err == nil {
				r.Name = q.String()
			}
			all = append(all, r)
		}
		what := "the catalog file is damaged"
		switch {
		case report.Integrity != "ok":
		case len(report.Lookups) > 0:
			what = "the lookup tables that every puzzle's SQL reads are damaged"
		default:
			what = "a record is not under its puzzle's name, which a rebuild cannot replace"
		}
		return fmt.Errorf("%d problem(s) found and %s; build its puzzles into a new catalog: %s", total, what, buildCommands(e, cat, "solcat --db NEW.db build", "", all))
	case len(damaged) > 0:
		var recs []catalog.Record
		for _, p := range report.Puzzles {
			if !p.OK() {
				recs = append(recs, p.Record)
			}
		}
		return fmt.Errorf("%d problem(s) found; rebuild the puzzles concerned: %s", total, buildCommands(e, cat, "solcat build", " --force", recs))
	}
	return fmt.Errorf("%d problem(s) found in the catalog's own tables; rebuild the puzzles they name with 'solcat build PUZZLE --force', or build a new catalog with 'solcat --db NEW.db build'", total)
}

// buildCommands are the commands (build, then the puzzles, then tail) that
// build the puzzles of recs again as they are stored: those known by
// their counts with --count-only, unless tables of theirs are there (a
// record that says counts may be the damage).
func buildCommands(e *env, cat *catalog.Catalog, build, tail string, recs []catalog.Record) string {
	var stored, counted []string
	for _, r := range recs {
		if has, err := cat.HasTables(e.ctx, r.Name); r.Storage == catalog.StorageCounts && err == nil && !has {
			counted = append(counted, r.Name)
		} else {
			stored = append(stored, r.Name)
		}
	}
	var out []string
	if len(stored) > 0 {
		out = append(out, fmt.Sprintf("'%s %s%s'", build, strings.Join(stored, " "), tail))
	}
	if len(counted) > 0 {
		out = append(out, fmt.Sprintf("'%s %s --count-only%s'", build, strings.Join(counted, " "), tail))
	}
	return strings.Join(out, " and ")
}

// printVerify prints verify's report: json one document; jsonl a line per
// puzzle and one for the catalog's own problems; csv a row per puzzle.
func printVerify(e *env, format records.Format, headers bool, r verify.Report) error {
	switch format {
	case records.Text:
		return nil // printed as it went
	case records.JSON:
		objs := make([]records.Object, len(r.Puzzles))
		for i, pr := range r.Puzzles {
			objs[i] = records.PuzzleReportObject(pr, true)
		}
		return printOne(e, format, headers, records.Obj("integrity", r.Integrity, "lookups", r.Lookups, "problems", r.Problems, "puzzles", objs))
	}
	p := records.NewPrinter(e.stdout, format, headers)
	if format == records.JSONL {
		p.Write(records.Obj("catalog", e.cli.DB, "integrity", r.Integrity, "lookups", r.Lookups, "problems", r.Problems))
	}
	for _, pr := range r.Puzzles {
		p.Write(records.PuzzleReportObject(pr, format == records.JSONL))
	}
	return p.Close()
}
