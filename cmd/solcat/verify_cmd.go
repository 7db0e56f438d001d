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

Examples:
  solcat verify
  solcat verify queens:8 magic:4`
}

// maxReported bounds the problems printed per puzzle.
const maxReported = 20

func (v *verifyCmd) Run(e *env) error {
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
				return fmt.Errorf("%s is not in the catalog %s; add it with 'solcat build %s'", p, e.cli.DB, p)
			}
			recs = append(recs, rec)
		}
	}
	total := 0
	var integrity string
	if err := cat.DB().GetContext(e.ctx, &integrity, "PRAGMA integrity_check"); err != nil {
		return err
	}
	if integrity != "ok" {
		fmt.Fprintf(e.stdout, "catalog: SQLite integrity check: %s\n", integrity)
		total++
	}
	for _, rec := range recs {
		p, err := canon.ParsePuzzle(rec.Name)
		if err != nil {
			return err
		}
		found := 0
		err = query.NewTarget(cat.DB(), p, rec).Verify(e.ctx, func(problem string) {
			found++
			if found <= maxReported {
				fmt.Fprintf(e.stdout, "%s: %s\n", rec.Name, problem)
			}
		})
		if err != nil {
			return fmt.Errorf("%s: %w", rec.Name, err)
		}
		switch {
		case found > maxReported:
			fmt.Fprintf(e.stdout, "%s: ... and %d more problems\n", rec.Name, found-maxReported)
		case found == 0 && rec.Storage == "counts":
			fmt.Fprintf(e.stdout, "%s: ok (counts only: %d solutions, %d classes)\n", rec.Name, rec.Solutions, rec.Classes)
		case found == 0:
			fmt.Fprintf(e.stdout, "%s: ok (%d solutions, %d classes, content %s)\n", rec.Name, rec.Solutions, rec.Classes, rec.ContentHash[:16])
		}
		total += found
	}
	if total > 0 {
		return errors.New(fmt.Sprint(total, " problem(s) found; rebuild the affected puzzles with 'solcat build PUZZLE --force'"))
	}
	return nil
}
