package main

import (
	"fmt"
	"text/tabwriter"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/help"
	"solcat/query/records"
)

var defaultBuild = []string{"magic:1-4", "queens:1-14"}

type buildCmd struct {
	Puzzles []string `arg:"" optional:"" name:"puzzle" predictor:"buildable" help:"Puzzles to build: KIND:N or KIND:A-B (default: magic:1-4 queens:1-14)."`
	cliparse.BuildFlags
	cliparse.FormatFlags
}

func (b *buildCmd) Help() string { return help.Text("build") }

func (b *buildCmd) Run(e *env) error {
	format := b.Format
	opts, err := b.Options(e.stderr)
	if err != nil {
		return err
	}
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
			fmt.Fprintln(out, advice.Built(p, opts.Shard, res))
		}
		if res.Outcome != builder.ShardDone {
			built = append(built, res.Record)
		}
	})
	if err != nil {
		return err
	}
	if format != records.Text {
		return records.WriteRecords(e.stdout, format, !b.NoHeaders, built)
	}
	return nil
}

// interrupted is a build stopped between the units that say how much they
// saved.
func (b *buildCmd) interrupted() error {
	return fmt.Errorf("%w; what was finished is saved: run the same command to go on", advice.ErrInterrupted)
}
