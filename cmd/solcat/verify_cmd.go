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
	"solcat/query/records"
	"solcat/query/verify"
)

type verifyCmd struct {
	Puzzles []string `arg:"" optional:"" name:"puzzle" predictor:"puzzle" help:"Puzzles to check (default: every puzzle in the catalog)."`
	cliparse.FormatFlags
}

func (v *verifyCmd) Help() string { return helpText("verify") }

func (v *verifyCmd) Run(e *env) error {
	format, err := v.Chosen()
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
	tell := func(string) {}
	if format == records.Text {
		tell = func(line string) { fmt.Fprintln(e.stdout, line) }
	}
	cat, err := e.open("")
	if errors.Is(err, catfile.ErrDamaged) {
		return v.salvage(e, format, err, tell)
	}
	if err != nil {
		return err
	}
	defer cat.Close()
	var recs []catalog.Record
	for _, name := range names {
		rec, ok, err := cat.Puzzle(e.ctx, name)
		if err != nil {
			return catfile.DamageError(e.cli.DB, err)
		}
		if !ok {
			p, _ := canon.ParsePuzzle(name)
			return advice.NotBuilt(e.ctx, cat, e.cli.DB, p)
		}
		recs = append(recs, rec)
	}
	report, err := verify.Catalog(e.ctx, cat, recs, tell)
	if err != nil {
		return advice.ErrInterrupted
	}
	if names == nil { // the whole catalog: the work saved by unfinished counts too
		saved, err := builder.SavedWorkProblems(e.ctx, cat)
		if err != nil {
			return catfile.DamageError(e.cli.DB, err)
		}
		for _, problem := range saved {
			tell("catalog: " + problem)
		}
		report.Problems = append(report.Problems, saved...)
	}
	if err := records.WriteVerifyReport(e.stdout, format, !v.NoHeaders, e.cli.DB, report); err != nil {
		return err
	}
	return advice.VerifyRemedy(e.ctx, cat, report)
}

// salvage reports on a catalog SQLite cannot open: which puzzles it lists
// can still be read page by page and which cannot.
func (v *verifyCmd) salvage(e *env, format records.Format, openErr error, tell func(string)) error {
	s, err := catalog.SalvageFile(e.cli.DB)
	if err != nil {
		return openErr
	}
	report := verify.Salvaged(s, "the database disk image is malformed", tell)
	if err := records.WriteVerifyReport(e.stdout, format, !v.NoHeaders, e.cli.DB, report); err != nil {
		return err
	}
	return advice.SalvageRemedy(e.cli.DB, report)
}
