package main

import (
	"errors"
	"fmt"

	"solcat/canon"
	"solcat/catalog"
	"solcat/query"
)

type verifyCmd struct {
	Puzzles []string `arg:"" optional:"" name:"puzzle" help:"Puzzles to check (default: every puzzle in the catalog)."`
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
	Puzzles   []puzzleReport `json:"puzzles"`
}

type puzzleReport struct {
	Puzzle       string   `json:"puzzle"`
	Storage      string   `json:"storage"`
	Solutions    int64    `json:"solutions"`
	Classes      int64    `json:"classes"`
	ContentHash  string   `json:"content_hash,omitempty"`
	OK           bool     `json:"ok"`
	Problems     []string `json:"problems"`
	ProblemCount int      `json:"problem_count"`
}

// maxReported bounds the problems printed per puzzle.
const maxReported = 20

func (v *verifyCmd) Run(e *env) error {
	format, err := e.format(query.Text, query.Text, query.JSON)
	if err != nil {
		return err
	}
	cat, err := catalog.Open(e.ctx, e.cli.DB)
	if err != nil {
		return err
	}
	defer cat.Close()
	var recs []catalog.Record
	if len(v.Puzzles) == 0 {
		if recs, err = cat.Puzzles(e.ctx); err != nil {
			return err
		}
	}
	for _, name := range v.Puzzles {
		ps, err := canon.ParsePuzzles(name)
		if err != nil {
			return err
		}
		for _, p := range ps {
			rec, ok, err := cat.Puzzle(e.ctx, p.String())
			if err != nil {
				return err
			}
			if !ok {
				return notBuilt(e, cat, p)
			}
			recs = append(recs, rec)
		}
	}
	total := 0
	var integrity string
	if err := cat.DB().GetContext(e.ctx, &integrity, "PRAGMA integrity_check"); err != nil {
		return err
	}
	report := verifyReport{Integrity: integrity, Puzzles: []puzzleReport{}}
	text := format == query.Text
	if integrity != "ok" {
		if text {
			fmt.Fprintf(e.stdout, "catalog: SQLite integrity check: %s\n", integrity)
		}
		total++
	}
	for _, rec := range recs {
		p, err := canon.ParsePuzzle(rec.Name)
		if err != nil {
			return err
		}
		found := 0
		pr := puzzleReport{Puzzle: rec.Name, Storage: rec.Storage, Solutions: rec.Solutions, Classes: rec.Classes, ContentHash: rec.ContentHash, Problems: []string{}}
		t, err := query.NewTarget(e.ctx, cat.DB(), p, rec)
		if err != nil {
			return err
		}
		err = t.Verify(e.ctx, func(problem string) {
			found++
			if found <= maxReported {
				pr.Problems = append(pr.Problems, problem)
				if text {
					fmt.Fprintf(e.stdout, "%s: %s\n", rec.Name, problem)
				}
			}
		})
		if err != nil {
			return fmt.Errorf("%s: %w", rec.Name, err)
		}
		pr.OK, pr.ProblemCount = found == 0, found
		report.Puzzles = append(report.Puzzles, pr)
		total += found
		if !text {
			continue
		}
		switch {
		case found > maxReported:
			fmt.Fprintf(e.stdout, "%s: ... and %d more problems\n", rec.Name, found-maxReported)
		case found == 0 && rec.Storage == "counts":
			fmt.Fprintf(e.stdout, "%s: ok (counts only: %d solutions, %d classes)\n", rec.Name, rec.Solutions, rec.Classes)
		case found == 0:
			fmt.Fprintf(e.stdout, "%s: ok (%d solutions, %d classes, content %s)\n", rec.Name, rec.Solutions, rec.Classes, rec.ContentHash[:16])
		}
	}
	if !text {
		if err := writeJSON(e.stdout, report); err != nil {
			return err
		}
	}
	if total > 0 {
		return errors.New(fmt.Sprint(total, " problem(s) found; rebuild the affected puzzles with 'solcat build PUZZLE --force'"))
	}
	return nil
}
