package main

import (
	"fmt"
	"strings"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/build"
	"solcat/query"
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

With --format json it prints one object: {"integrity": SQLite's answer,
"puzzles": [{"puzzle", "storage", "solutions", "classes", "content_hash",
"ok", "problems": [at most 20 lines], "problem_count"}]}.

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
	if format == query.Text {
		tell = func(line string) { fmt.Fprintln(e.stdout, line) }
	}
	report, err := query.VerifyCatalog(e.ctx, cat, recs, tell)
	if err != nil {
		return errInterrupted
	}
	if names == nil { // the whole catalog: the work saved by unfinished counts too
		saved, err := build.SavedWorkProblems(e.ctx, cat)
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
	switch {
	case total == 0:
		return nil
	case report.Integrity != "ok":
		// SQLite's own structures are damaged: writing more into the file is
		// no cure. Every puzzle is built anew elsewhere.
		all := make([]string, 0, len(report.Puzzles))
		for _, p := range report.Puzzles {
			all = append(all, p.Record.Name)
		}
		return fmt.Errorf("%d problem(s) found and the catalog file is damaged; build its puzzles into a new catalog: 'solcat --db NEW.db build %s'", total, strings.Join(all, " "))
	case len(damaged) > 0:
		return fmt.Errorf("%d problem(s) found; rebuild the puzzles concerned: 'solcat build %s --force'", total, strings.Join(damaged, " "))
	}
	return fmt.Errorf("%d problem(s) found in the catalog's own tables; rebuild the puzzles they name with 'solcat build PUZZLE --force', or build a new catalog with 'solcat --db NEW.db build'", total)
}

// printVerify prints verify's report: json one document; jsonl a line per
// puzzle and one for the catalog's own problems; csv a row per puzzle.
func printVerify(e *env, format query.Format, headers bool, r query.CatalogReport) error {
	switch format {
	case query.Text:
		return nil // printed as it went
	case query.JSON:
		objs := make([]query.Object, len(r.Puzzles))
		for i, pr := range r.Puzzles {
			objs[i] = pr.Object(true)
		}
		return printOne(e, format, headers, query.O("integrity", r.Integrity, "problems", r.Problems, "puzzles", objs))
	}
	p := query.NewPrinter(e.stdout, format, headers)
	if format == query.JSONL {
		p.Write(query.O("catalog", e.cli.DB, "integrity", r.Integrity, "problems", r.Problems))
	}
	for _, pr := range r.Puzzles {
		p.Write(pr.Object(format == query.JSONL))
	}
	return p.Close()
}
