package main

import (
	"runtime"

	"solcat/canon"
	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/help"
	"solcat/enumerate"
	"solcat/query/records"
)

type benchCmd struct {
	Puzzle  string   `arg:"" predictor:"buildable" help:"The puzzle, for example queens:12 or magic:4."`
	Methods []string `help:"Methods to run (default: all for the puzzle's kind)."`
	Runs    int      `default:"3" help:"Runs of each method; the table shows the median time."`
	cliparse.FormatFlags
}

func (b *benchCmd) Help() string { return help.Text("bench") }

func (b *benchCmd) Run(e *env) error {
	format := b.Format
	p, err := canon.ParsePuzzle(b.Puzzle)
	if err != nil {
		return err
	}
	if b.Runs < 1 || b.Runs > 1000 {
		return usagef("--runs %d is out of range; give 1 to 1000", b.Runs)
	}
	limit := enumerate.MaxStoredQueens
	if p.Kind == canon.Magic {
		limit = enumerate.MaxMagicOrder
	}
	if p.N > limit {
		return usagef("bench runs %s up to size %d, not %d", p.Kind, limit, p.N)
	}
	methods, err := enumerate.MethodsNamed(p.Kind, b.Methods)
	if err != nil {
		return advice.UsageOf(err)
	}
	rows, err := enumerate.Bench(e.ctx, p.N, methods, b.Runs)
	if err != nil {
		return err
	}
	report := records.Bench{Puzzle: p, Runs: b.Runs, Cores: runtime.NumCPU()}
	for _, r := range rows {
		report.Timings = append(report.Timings, records.Timing(r))
	}
	return records.WriteBench(e.stdout, format, !b.NoHeaders, report)
}
