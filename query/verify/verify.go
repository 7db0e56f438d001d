// Package verify checks what a catalog holds against itself: every check
// of a puzzle's record and tables is here. Catalog is the whole re-check
// (solcat verify): SQLite's integrity, the lookup tables, the catalog's own
// tables, and each puzzle read to the end (Puzzle); QuickLook is the look a
// query takes at a puzzle before it answers. Problems are reported as
// lines, the puzzle's or the catalog's; an error is a read that failed, or
// an interruption.
package verify

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/catfile"
)

// MaxReported bounds the problems a report keeps for one puzzle.
const MaxReported = 20

// Report is what verifying a catalog found.
type Report struct {
	Integrity string   // SQLite's integrity check: "ok", or its findings
	Lookups   []string // the lookup tables every puzzle's SQL reads, against their definitions
	Problems  []string // the catalog's own: tables and records that do not match
	Puzzles   []PuzzleReport
}

// PuzzleReport is what verifying one puzzle found.
type PuzzleReport struct {
	Record       catalog.Record
	Problems     []string // the first MaxReported
	ProblemCount int
	Notes        []string // what was checked less than in full, and why
	// WrongAnswers are the filters of the answers kept found wrong, and
	// AnswerProblems the problems found in them (of ProblemCount).
	WrongAnswers   []string
	AnswerProblems int
}

// saying gives the functions that add a problem and a note to p, each
// said as it is found (problems past MaxReported only counted).
func (p *PuzzleReport) saying(say func(format string, args ...any)) (problem, note func(string)) {
	problem = func(text string) {
		p.ProblemCount++
		if p.ProblemCount <= MaxReported {
			p.Problems = append(p.Problems, text)
			say("%s: %s", p.Record.Name, text)
		}
	}
	note = func(text string) {
		p.Notes = append(p.Notes, text)
		say("%s: note: %s", p.Record.Name, text)
	}
	return problem, note
}

// wrongAnswer is problem for an answer kept under filter.
func (p *PuzzleReport) wrongAnswer(problem func(string)) func(filter, text string) {
	return func(filter, text string) {
		p.AnswerProblems++
		if !slices.Contains(p.WrongAnswers, filter) {
			p.WrongAnswers = append(p.WrongAnswers, filter)
		}
		problem(text)
	}
}

// OK reports whether the puzzle has no problem.
func (p PuzzleReport) OK() bool { return p.ProblemCount == 0 }

// Total counts every problem found.
func (r Report) Total() int {
	total := len(r.Problems) + len(r.Lookups)
	if r.Integrity != "ok" {
		total++
	}
	for _, p := range r.Puzzles {
		total += p.ProblemCount
	}
	return total
}

// Damaged names the puzzles with problems.
func (r Report) Damaged() []string {
	var out []string
	for _, p := range r.Puzzles {
		if !p.OK() {
			out = append(out, p.Record.Name)
		}
	}
	return out
}

// Catalog checks SQLite's integrity, each puzzle of recs and the answers
// kept for each puzzle of kept (puzzles with no record: counts that need
// none); with recs nil, every puzzle, every kept answer and the catalog's
// own tables (each table with its record and each record with its
// tables). Damage in one puzzle does not stop the check of the others.
// tell gets each line of the report as it is found, for a reader
// watching. The error is an interruption.
func Catalog(ctx context.Context, cat *catalog.Catalog, recs []catalog.Record, kept []canon.Puzzle, tell func(line string)) (Report, error) {
	say := func(format string, args ...any) { tell(fmt.Sprintf(format, args...)) }
	report := Report{Lookups: []string{}, Problems: []string{}, Puzzles: []PuzzleReport{}}
	report.Integrity = strings.Join(cat.Health().Integrity(ctx, MaxReported), "; ")
	say("catalog: SQLite integrity check: %s", report.Integrity)
	lookups, err := cat.Health().CheckLookups(ctx)
	if err != nil {
		lookups = append(lookups, "the lookup tables cannot be read: "+err.Error())
	}
	report.Lookups = append(report.Lookups, lookups...)
	for _, problem := range report.Lookups {
		say("catalog: %s", problem)
	}
	var names []string // the puzzles asked for; nil for all
	if recs != nil {
		names = make([]string, 0, len(recs))
	}
	for _, rec := range recs {
		names = append(names, rec.Name)
	}
	if recs == nil {
		all, err := cat.Puzzles(ctx)
		if err != nil {
			report.Problems = append(report.Problems, "the puzzles table cannot be read: "+catfile.DamageError(cat.Path(), err).Error())
		}
		recs = all
		orphans, err := cat.Health().Orphans(ctx)
		if err != nil {
			orphans = append(orphans, "the catalog's tables cannot be listed: "+err.Error())
		}
		report.Problems = append(report.Problems, orphans...)
		strays, err := strayRecords(ctx, cat, recs)
		if err != nil {
			strays = append(strays, "the catalog's records cannot be read: "+err.Error())
		}
		report.Problems = append(report.Problems, strays...)
		wrong, err := estimates(ctx, cat, recs)
		if err != nil {
			wrong = append(wrong, "the estimates cannot be read: "+err.Error())
		}
		report.Problems = append(report.Problems, wrong...)
		if kept, err = KeptOnly(ctx, cat, recs); err != nil {
			report.Problems = append(report.Problems, "the kept answers cannot be read: "+err.Error())
		}
	}
	builds, err := cat.Health().CheckBuilds(ctx, names)
	if err != nil {
		report.Problems = append(report.Problems, "the builds table cannot be read: "+err.Error())
	}
	for _, b := range builds {
		finished := ""
		if slices.ContainsFunc(recs, func(r catalog.Record) bool { return r.Name == b.Puzzle }) {
			finished = " (it is recorded as finished too)"
		}
		report.Problems = append(report.Problems, b.Puzzle+": "+b.Problem+finished)
	}
	for _, problem := range report.Problems {
		say("catalog: %s", problem)
	}
	for _, rec := range recs {
		pr := PuzzleReport{Record: rec, Problems: []string{}, Notes: []string{}}
		problem, note := pr.saying(say)
		p, err := canon.ParsePuzzle(rec.Name)
		if err == nil {
			err = Puzzle(ctx, cat, p, rec, problem)
		}
		if err == nil && rec.Storage == catalog.StorageCounts {
			err = answers(ctx, cat, rec, pr.wrongAnswer(problem), note)
		}
		if ctx.Err() != nil {
			return report, ctx.Err()
		}
		if err != nil {
			problem(fmt.Sprintf("cannot be read to the end: %v", catfile.DamageError(cat.Path(), err)))
		}
		report.Puzzles = append(report.Puzzles, pr)
		switch {
		case pr.ProblemCount > MaxReported:
			say("%s: ... and %d more problems", rec.Name, pr.ProblemCount-MaxReported)
		case !pr.OK():
		case rec.Storage == catalog.StorageCounts:
			say("%s: ok (counts only: %s, %s)", rec.Name, canon.Plural(rec.Solutions, "solution"), canon.Plural(rec.Classes, "class"))
		default:
			say("%s: ok (%s, %s, content %.16s)", rec.Name, canon.Plural(rec.Solutions, "solution"), canon.Plural(rec.Classes, "class"), rec.ContentHash)
		}
	}
	for _, p := range kept {
		// A puzzle with no record: its answers are checked by what is
		// known of it, the published total if there is one.
		rec := catalog.Record{Name: p.String(), Kind: p.Kind, N: p.N, Storage: StorageKeptOnly, Solutions: -1}
		if k, ok := canon.KnownCounts(p); ok {
			rec.Solutions = k.Solutions
		}
		pr := PuzzleReport{Record: rec, Problems: []string{}, Notes: []string{}}
		problem, note := pr.saying(say)
		err := answers(ctx, cat, rec, pr.wrongAnswer(problem), note)
		if ctx.Err() != nil {
			return report, ctx.Err()
		}
		if err != nil {
			problem(fmt.Sprintf("its kept answers cannot be read to the end: %v", catfile.DamageError(cat.Path(), err)))
		}
		report.Puzzles = append(report.Puzzles, pr)
		if pr.OK() {
			say("%s: ok (answers kept from counts that need nothing stored)", rec.Name)
		}
	}
	return report, nil
}

// StorageKeptOnly is a report's storage of a puzzle the catalog holds
// only answers kept for (see Catalog).
const StorageKeptOnly catalog.Storage = "answers"

// KeptOnly lists the puzzles with answers kept and no record in recs, in
// order.
func KeptOnly(ctx context.Context, cat *catalog.Catalog, recs []catalog.Record) ([]canon.Puzzle, error) {
	answers, err := cat.Kept().Answers(ctx, "")
	if err != nil {
		return nil, err
	}
	var out []canon.Puzzle
	for _, a := range answers {
		if slices.ContainsFunc(recs, func(r catalog.Record) bool { return r.Name == a.Puzzle }) {
			continue
		}
		if p, err := canon.ParsePuzzle(a.Puzzle); err == nil && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// strayRecords names what the catalog records of puzzles it does not hold:
// counts recorded for a puzzle with no record, and a shard's mark on a
// puzzle it holds whole (a finished build removes the mark).
func strayRecords(ctx context.Context, cat *catalog.Catalog, recs []catalog.Record) ([]string, error) {
	recorded := map[string]bool{}
	for _, r := range recs {
		recorded[r.Name] = true
	}
	var problems []string
	counted, err := cat.Health().BreakdownPuzzles(ctx)
	if err != nil {
		return nil, err
	}
	for _, name := range counted {
		if !recorded[name] {
			problems = append(problems, fmt.Sprintf("%s: the table count_breakdown holds counts recorded for it, but it has no record in puzzles", name))
		}
	}
	shards, err := cat.Work().Shards(ctx)
	if err != nil {
		return nil, err
	}
	for _, s := range shards {
		if recorded[s.Puzzle] {
			problems = append(problems, fmt.Sprintf("%s: recorded as finished, and marked as shard %d of %d of a split build too (info shows it both ways)", s.Puzzle, s.Shard, s.Of))
		}
	}
	return problems, nil
}

// Salvaged is the report on a catalog SQLite cannot open, from what the
// page reader could still read of it (catalog.SalvageFile): why SQLite
// cannot, what of the file is lost, and each puzzle it lists, readable
// page by page or not. tell gets each line, as Catalog's.
func Salvaged(s catalog.Salvage, why string, tell func(line string)) Report {
	report := Report{Integrity: why, Lookups: []string{}, Problems: append([]string{}, s.Problems...), Puzzles: []PuzzleReport{}}
	tell("catalog: SQLite cannot open it: " + why)
	for _, problem := range report.Problems {
		tell("catalog: " + problem)
	}
	for _, sp := range s.Puzzles {
		pr := PuzzleReport{Record: catalog.Record{Name: sp.Name, Storage: sp.Storage, Solutions: sp.Solutions, Classes: sp.Classes}, Problems: []string{}, Notes: []string{}}
		if sp.Lost != "" {
			pr.Problems, pr.ProblemCount = []string{"cannot be read: " + sp.Lost}, 1
			tell(sp.Name + ": cannot be read: " + sp.Lost)
		} else {
			note := fmt.Sprintf("readable: the %s of its tables are all in the file (not checked further, as SQLite cannot open the catalog)", canon.Plural(int64(sp.Pages), "page"))
			if sp.Storage == catalog.StorageCounts {
				note = "readable: its record is in the file (not checked further, as SQLite cannot open the catalog)"
			}
			pr.Notes = append(pr.Notes, note)
			tell(sp.Name + ": " + note)
		}
		report.Puzzles = append(report.Puzzles, pr)
	}
	return report
}
