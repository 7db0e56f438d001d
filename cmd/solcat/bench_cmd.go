package main

import (
	"fmt"
	"runtime"
	"slices"
	"text/tabwriter"

	"github.com/dustin/go-humanize"

	"solcat/canon"
	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/cliparse"
	"solcat/enumerate"
	"solcat/query/records"
)

type benchCmd struct {
	Puzzle  string   `arg:"" predictor:"buildable" help:"The puzzle, for example queens:12 or magic:4."`
	Methods []string `help:"Methods to run (default: all for the puzzle's kind)."`
	Runs    int      `default:"3" help:"Runs of each method; the table shows the median time."`
	cliparse.FormatFlags
}

func (b *benchCmd) Help() string { return helpText("bench") }

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
	methods := enumerate.Methods(p.Kind)
	if len(b.Methods) > 0 {
		methods = nil
		for _, name := range b.Methods {
			m, err := enumerate.MethodByName(p.Kind, name)
			if err != nil {
				return advice.UsageOf(err)
			}
			if !slices.ContainsFunc(methods, func(had enumerate.Method) bool { return had.Name == m.Name }) {
				methods = append(methods, m) // a method named twice runs once
			}
		}
	}
	rows, err := enumerate.Bench(e.ctx, p.N, methods, b.Runs)
	if err != nil {
		return err
	}
	if format != records.Text {
		out := records.NewPrinter(e.stdout, format, !b.NoHeaders)
		for _, r := range rows {
			out.Write(records.Obj("puzzle", p.String(), "method", r.Method, "solutions", r.Solutions, "nodes", r.Nodes, "seconds", r.Seconds, "ratio", r.Ratio, "runs", b.Runs, "cores", runtime.NumCPU(), "about", r.About))
		}
		return out.Close()
	}
	fmt.Fprintf(e.stdout, "%s, median of %d run(s), %d cores\n", p, b.Runs, runtime.NumCPU())
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	if !b.NoHeaders {
		fmt.Fprintln(w, "method\tsolutions\tnodes\ttime\tratio\t")
	}
	for _, r := range rows {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%.1fx\t\n", r.Method, humanize.Comma(r.Solutions), humanize.Comma(r.Nodes), formatSeconds(r.Seconds), r.Ratio)
	}
	return w.Flush()
}

func formatSeconds(s float64) string {
	if s < 1 {
		return fmt.Sprintf("%.1f ms", s*1000)
	}
	return fmt.Sprintf("%.2f s", s)
}
