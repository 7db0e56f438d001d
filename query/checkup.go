package query

import (
	"context"
	"fmt"
	"strings"

	"solcat/canon"
	"solcat/catalog"
)

// MaxReported bounds the problems a report keeps for one puzzle.
const MaxReported = 20

// CatalogReport is what verifying a catalog found.
type CatalogReport struct {
	Integrity string   // SQLite's integrity check: "ok", or its findings
	Problems  []string // the catalog's own: tables and records that do not match
	Puzzles   []PuzzleReport
}

// PuzzleReport is what verifying one puzzle found.
type PuzzleReport struct {
	Record       catalog.Record
	Problems     []string // the first MaxReported
	ProblemCount int
}

// OK reports whether the puzzle has no problem.
func (p PuzzleReport) OK() bool { return p.ProblemCount == 0 }

// Object is the puzzle's report as a record; full adds its problems.
func (p PuzzleReport) Object(full bool) Object {
	r := p.Record
	o := O("puzzle", r.Name, "storage", string(r.Storage), "solutions", r.Solutions, "classes", r.Classes, "content_hash", r.ContentHash, "ok", p.OK(), "problem_count", p.ProblemCount)
	if full {
		o = append(o, Field{Name: "problems", Value: p.Problems})
	}
	return o
}

// Total counts every problem found.
func (r CatalogReport) Total() int {
	total := len(r.Problems)
	if r.Integrity != "ok" {
		total++
	}
	for _, p := range r.Puzzles {
		total += p.ProblemCount
	}
	return total
}

// Damaged names the puzzles with problems.
func (r CatalogReport) Damaged() []string {
	var out []string
	for _, p := range r.Puzzles {
		if !p.OK() {
			out = append(out, p.Record.Name)
		}
	}
	return out
}

// VerifyCatalog checks SQLite's integrity and each puzzle of recs; with
// recs nil, every puzzle and the catalog's own tables (each table with
// its record and each record with its tables). Damage in one puzzle does
// not stop the check of the others. tell gets each line of the report as
// it is found, for a reader watching. The error is an interruption.
func VerifyCatalog(ctx context.Context, cat *catalog.Catalog, recs []catalog.Record, tell func(line string)) (CatalogReport, error) {
	say := func(format string, args ...any) { tell(fmt.Sprintf(format, args...)) }
	report := CatalogReport{Problems: []string{}, Puzzles: []PuzzleReport{}}
	report.Integrity = strings.Join(cat.Integrity(ctx, MaxReported), "; ")
	say("catalog: SQLite integrity check: %s", report.Integrity)
	if recs == nil {
		all, err := cat.Puzzles(ctx)
		if err != nil {
			report.Problems = append(report.Problems, "the puzzles table cannot be read: "+catalog.Describe(cat.Path(), err).Error())
		}
		recs = all
		orphans, err := cat.Orphans(ctx)
		if err != nil {
			orphans = append(orphans, "the catalog's tables cannot be listed: "+err.Error())
		}
		report.Problems = append(report.Problems, orphans...)
		for _, problem := range report.Problems {
			say("catalog: %s", problem)
		}
	}
	for _, rec := range recs {
		pr := PuzzleReport{Record: rec, Problems: []string{}}
		problem := func(text string) {
			pr.ProblemCount++
			if pr.ProblemCount <= MaxReported {
				pr.Problems = append(pr.Problems, text)
				say("%s: %s", rec.Name, text)
			}
		}
		p, err := canon.ParsePuzzle(rec.Name)
		if err == nil {
			var t *Target
			if t, err = NewTarget(ctx, cat, p, rec); err == nil {
				err = t.Verify(ctx, problem)
			}
		}
		if ctx.Err() != nil {
			return report, ctx.Err()
		}
		if err != nil {
			problem(fmt.Sprintf("cannot be read to the end: %v", catalog.Describe(cat.Path(), err)))
		}
		report.Puzzles = append(report.Puzzles, pr)
		switch {
		case pr.ProblemCount > MaxReported:
			say("%s: ... and %d more problems", rec.Name, pr.ProblemCount-MaxReported)
		case !pr.OK():
		case rec.Storage == catalog.StorageCounts:
			say("%s: ok (counts only: %d solutions, %d classes)", rec.Name, rec.Solutions, rec.Classes)
		default:
			say("%s: ok (%d solutions, %d classes, content %.16s)", rec.Name, rec.Solutions, rec.Classes, rec.ContentHash)
		}
	}
	return report, nil
}
