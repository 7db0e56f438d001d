package main

import (
	"fmt"
	"strings"

	"solcat/canon"
	"solcat/catalog"
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

// verifyReport is the JSON shape of verify.
type verifyReport struct {
	Integrity string         `json:"integrity"`
	Problems  []string       `json:"problems"` // the catalog's own: tables and records that do not match
	Puzzles   []puzzleReport `json:"puzzles"`
}

type puzzleReport struct {
	Puzzle       string          `json:"puzzle"`
	Storage      catalog.Storage `json:"storage"`
	Solutions    int64           `json:"solutions"`
	Classes      int64           `json:"classes"`
	ContentHash  string          `json:"content_hash,omitempty"`
	OK           bool            `json:"ok"`
	Problems     []string        `json:"problems"`
	ProblemCount int             `json:"problem_count"`
}

// maxReported bounds the problems printed per puzzle.
const maxReported = 20

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
	text := format == query.Text
	report := verifyReport{Problems: []string{}, Puzzles: []puzzleReport{}}
	total := 0
	var damaged []string // puzzles with problems
	say := func(format string, args ...any) {
		if text {
			fmt.Fprintf(e.stdout, format+"\n", args...)
		}
	}
	integrity := cat.Integrity(e.ctx, maxReported)
	report.Integrity = strings.Join(integrity, "; ")
	if report.Integrity != "ok" {
		total++
	}
	say("catalog: SQLite integrity check: %s", report.Integrity)
	// The catalog as a whole: every puzzle's tables have a record and every
	// record its tables. Only when checking everything.
	if len(names) == 0 {
		all, err := cat.Puzzles(e.ctx)
		if err != nil {
			report.Problems = append(report.Problems, "the puzzles table cannot be read: "+catalog.Describe(e.cli.DB, err).Error())
		}
		recs = all
		orphans, err := cat.Orphans(e.ctx)
		if err != nil {
			orphans = append(orphans, "the catalog's tables cannot be listed: "+err.Error())
		}
		report.Problems = append(report.Problems, orphans...)
		for _, problem := range report.Problems {
			say("catalog: %s", problem)
		}
		total += len(report.Problems)
	}
	for _, rec := range recs {
		pr := puzzleReport{Puzzle: rec.Name, Storage: rec.Storage, Solutions: rec.Solutions, Classes: rec.Classes, ContentHash: rec.ContentHash, Problems: []string{}}
		problem := func(text string) {
			pr.ProblemCount++
			if pr.ProblemCount <= maxReported {
				pr.Problems = append(pr.Problems, text)
				say("%s: %s", rec.Name, text)
			}
		}
		p, err := canon.ParsePuzzle(rec.Name)
		if err == nil {
			var t *query.Target
			if t, err = query.NewTarget(e.ctx, cat, p, rec); err == nil {
				err = t.Verify(e.ctx, problem)
			}
		}
		if e.ctx.Err() != nil {
			return errInterrupted
		}
		if err != nil {
			// Damage in one puzzle does not stop the check of the others.
			problem(fmt.Sprintf("cannot be read to the end: %v", catalog.Describe(e.cli.DB, err)))
		}
		pr.OK = pr.ProblemCount == 0
		report.Puzzles = append(report.Puzzles, pr)
		total += pr.ProblemCount
		switch {
		case pr.ProblemCount > maxReported:
			say("%s: ... and %d more problems", rec.Name, pr.ProblemCount-maxReported)
		case !pr.OK:
		case rec.Storage == catalog.StorageCounts:
			say("%s: ok (counts only: %d solutions, %d classes)", rec.Name, rec.Solutions, rec.Classes)
		default:
			say("%s: ok (%d solutions, %d classes, content %.16s)", rec.Name, rec.Solutions, rec.Classes, rec.ContentHash)
		}
		if !pr.OK {
			damaged = append(damaged, rec.Name)
		}
	}
	if err := printVerify(e, format, !v.NoHeaders, report); err != nil {
		return err
	}
	switch {
	case total == 0:
		return nil
	case report.Integrity != "ok":
		// SQLite's own structures are damaged: writing more into the file is
		// no cure. Every puzzle is built anew elsewhere.
		all := make([]string, 0, len(recs))
		for _, r := range recs {
			all = append(all, r.Name)
		}
		return fmt.Errorf("%d problem(s) found and the catalog file is damaged; build its puzzles into a new catalog: 'solcat --db NEW.db build %s'", total, strings.Join(all, " "))
	case len(damaged) > 0:
		return fmt.Errorf("%d problem(s) found; rebuild the puzzles concerned: 'solcat build %s --force'", total, strings.Join(damaged, " "))
	}
	return fmt.Errorf("%d problem(s) found in the catalog's own tables; rebuild the puzzles they name with 'solcat build PUZZLE --force', or build a new catalog with 'solcat --db NEW.db build'", total)
}

// printVerify prints verify's report: json one document; jsonl a line per
// puzzle and one for the catalog's own problems; csv a row per puzzle.
func printVerify(e *env, format query.Format, headers bool, r verifyReport) error {
	puzzle := func(pr puzzleReport, full bool) query.Object {
		o := query.O("puzzle", pr.Puzzle, "storage", string(pr.Storage), "solutions", pr.Solutions, "classes", pr.Classes, "content_hash", pr.ContentHash, "ok", pr.OK, "problem_count", pr.ProblemCount)
		if full {
			o = append(o, query.Field{Name: "problems", Value: pr.Problems})
		}
		return o
	}
	switch format {
	case query.Text:
		return nil // printed as it went
	case query.JSON:
		objs := make([]query.Object, len(r.Puzzles))
		for i, pr := range r.Puzzles {
			objs[i] = puzzle(pr, true)
		}
		return printOne(e, format, headers, query.O("integrity", r.Integrity, "problems", r.Problems, "puzzles", objs))
	}
	p := query.NewPrinter(e.stdout, format, headers)
	if format == query.JSONL {
		p.Write(query.O("catalog", e.cli.DB, "integrity", r.Integrity, "problems", r.Problems))
	}
	for _, pr := range r.Puzzles {
		p.Write(puzzle(pr, format == query.JSONL))
	}
	return p.Close()
}
