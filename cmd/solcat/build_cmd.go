package main

import (
	"fmt"
	"text/tabwriter"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/console"
	"solcat/cmd/solcat/help"
	"solcat/query/records"
)

var defaultBuild = []string{"magic:1-4", "queens:1-14"}

type buildCmd struct {
	Puzzles   []string `arg:"" optional:"" name:"puzzle" predictor:"buildable" help:"Puzzles to build: KIND:N or KIND:A-B (default: magic:1-4 queens:1-14)."`
	Force     bool     `help:"Rebuild puzzles that are already complete."`
	CountOnly bool     `name:"count-only" help:"Count solutions, classes and the orbit split without storing solutions (queens up to N=23, magic:5 with counts by centre). Resumable: run the same command again after an interruption."`
	Workers   int      `help:"Search goroutines, 1 to 1024 (default: one per core). The catalog is the same for any value." default:"0"`
	Shard     string   `placeholder:"I/K" help:"Build only shard I of K into this catalog: with --count-only the work units whose index mod K is I-1; stored queens, the solutions whose first-row queen is in the I-th of K column ranges. Combine the K shard catalogs with 'solcat merge'."`
	AsClasses bool     `name:"as-classes" hidden:"" help:"Store queens as their classes only whatever N, as queens:18 and 19 always are (for tests)."`
	cliparse.FormatFlags
}

func (b *buildCmd) Help() string { return help.Text("build") }

func (b *buildCmd) Run(e *env) error {
	format := b.Format
	shard, err := builder.ParseShard(b.Shard)
	if err != nil {
		return usagef("--shard %w", err)
	}
	if err := cliparse.CheckWorkers(b.Workers, builder.MaxWorkers); err != nil {
		return err
	}
	opts := builder.Options{CountOnly: b.CountOnly, Force: b.Force, Workers: b.Workers, Shard: shard, AsClasses: b.AsClasses, Notices: e.stderr,
		NewProgress: func(label, unit string) builder.Progress { return console.NewProgress(e.stderr, label, unit) }}
	names := b.Puzzles
	if len(names) == 0 {
		names = defaultBuild
	}
	puzzles, err := cliparse.Puzzles(names)
	if err != nil {
		return err
	}
	var puzzleNames []string
	for _, p := range puzzles {
		if err := builder.Check(p, opts); err != nil {
			return advice.BuildRemedy(p, opts, err)
		}
		puzzleNames = append(puzzleNames, p.String())
	}
	if err := builder.CheckShardsAt(e.ctx, e.DB, puzzles, opts); err != nil {
		return err
	}
	cat, err := catalog.Create(e.ctx, e.DB, e.Holder(puzzleNames))
	if err != nil {
		return err
	}
	defer cat.Close()
	cat.SetNotices(e.stderr)
	var built []catalog.Record
	out := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	defer out.Flush()
	err = (&builder.Builder{Cat: cat}).All(e.ctx, puzzles, opts, func(p canon.Puzzle, res builder.Result) {
		if format == records.Text {
			fmt.Fprintln(out, advice.Built(p, shard, res))
		}
		if res.Outcome != builder.ShardDone {
			built = append(built, res.Record)
		}
	})
	if err != nil {
		return err
	}
	if format != records.Text {
		p := records.NewPrinter(e.stdout, format, !b.NoHeaders).Columns(records.RecordObject(catalog.Record{}))
		for _, r := range built {
			p.Write(records.RecordObject(r))
		}
		return p.Close()
	}
	return nil
}

// interrupted is a build stopped between the units that say how much they
// saved.
func (b *buildCmd) interrupted() error {
	return fmt.Errorf("%w; what was finished is saved: run the same command to go on", advice.ErrInterrupted)
}
