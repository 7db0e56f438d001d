package main

import (
	"errors"
	"fmt"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/catalog/catfile"
	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/help"
	"solcat/query/records"
	"solcat/query/verify"
)

type verifyCmd struct {
	Puzzles []string `arg:"" optional:"" name:"puzzle" predictor:"puzzle" help:"Puzzles to check (default: every puzzle in the catalog)."`
	cliparse.FormatFlags
}

func (v *verifyCmd) Help() string { return help.Text("verify") }

func (v *verifyCmd) Run(e *env) error {
	format := v.Format
	puzzles, err := cliparse.Puzzles(v.Puzzles)
	if err != nil {
		return err
	}
	tell := func(string) {}
	if format == records.Text {
		tell = func(line string) { fmt.Fprintln(e.stdout, line) }
	}
	cat, err := e.Open(e.ctx, "")
	if errors.Is(err, catfile.ErrDamaged) {
		return v.salvage(e, format, err, tell)
	}
	if err != nil {
		return err
	}
	defer cat.Close()
	recs, kept, err := v.records(e, cat, puzzles)
	if err != nil {
		return err
	}
	report, err := verify.Catalog(e.ctx, cat, recs, kept, tell)
	if err != nil {
		return advice.ErrInterrupted
	}
	if len(puzzles) == 0 { // the whole catalog: the work saved by unfinished counts too
		saved, err := builder.SavedWorkProblems(e.ctx, cat)
		if err != nil {
			return catfile.DamageError(e.DB, err)
		}
		for _, problem := range saved {
			tell("catalog: " + problem)
		}
		report.Problems = append(report.Problems, saved...)
	}
	if err := records.WriteVerifyReport(e.stdout, format, !v.NoHeaders, e.DB, report); err != nil {
		return err
	}
	return advice.VerifyRemedy(e.ctx, cat, report)
}

// records gives the records of the puzzles named, and those of them the
// catalog holds only kept answers for; none named: nil for all.
func (v *verifyCmd) records(e *env, cat *catalog.Catalog, puzzles []canon.Puzzle) ([]catalog.Record, []canon.Puzzle, error) {
	if len(puzzles) == 0 {
		return nil, nil, nil
	}
	recs := []catalog.Record{} // not nil: the puzzles named, not every one
	var kept []canon.Puzzle
	for _, p := range puzzles {
		rec, found, err := cat.Puzzle(e.ctx, p.String())
		if err != nil {
			return nil, nil, catfile.DamageError(e.DB, err)
		}
		if found {
			recs = append(recs, rec)
			continue
		}
		answers, err := cat.Kept().Answers(e.ctx, p.String())
		if err != nil {
			return nil, nil, catfile.DamageError(e.DB, err)
		}
		if len(answers) == 0 {
			return nil, nil, e.NotBuilt(e.ctx, cat, p)
		}
		kept = append(kept, p)
	}
	return recs, kept, nil
}

// salvage reports on a catalog SQLite cannot open: which puzzles it lists
// can still be read page by page and which cannot.
func (v *verifyCmd) salvage(e *env, format records.Format, openErr error, tell func(string)) error {
	s, err := catalog.SalvageFile(e.DB)
	if err != nil {
		return openErr
	}
	report := verify.Salvaged(s, "the database disk image is malformed", tell)
	if err := records.WriteVerifyReport(e.stdout, format, !v.NoHeaders, e.DB, report); err != nil {
		return err
	}
	return advice.SalvageRemedy(e.DB, report)
}
