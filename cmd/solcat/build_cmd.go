package main

import (
	"errors"
	"fmt"
	"runtime"
	"text/tabwriter"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/builder"
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
	formatFlags
}

func (b *buildCmd) Help() string {
	return `A build commits its rows in units (about a million rows each for the
largest puzzles). Interrupted, even by SIGKILL, it loses at most the unit in
flight: run the same command again and it resumes. Until it finishes,
queries on the puzzle say how far it is, and a puzzle being rebuilt with
--force keeps answering from its previous build. One build at a time
writes a catalog. Every count is compared with the published values (OEIS
A006052, A000170, A002562, A260318, A260320); a mismatch fails the build.

Examples:
  solcat build                      # magic:1-4 and queens:1-14
  solcat build queens:15 --workers 2
  solcat build magic:4 --force      # rebuild
  solcat build queens:18-20 --count-only
  solcat build magic:5 --count-only   # 2,202,441,792 squares, about 2 minutes
  solcat build magic:5                # stores its 275,305,224 classes (docs/algorithms.md)
  solcat build queens:18-19           # stores their 83,263,591 and 621,012,754 classes
  solcat build queens:22 --count-only --shard 1/64   # one of 64 pieces; then 'solcat merge'
  solcat --db /tmp/cat.db build queens:1-8`
}

func (b *buildCmd) Run(e *env) error {
	format, err := b.format()
	if err != nil {
		return err
	}
	shard, err := builder.ParseShard(b.Shard)
	if err != nil {
		return usagef("--shard %w", err)
	}
	if b.Workers < 0 || b.Workers > builder.MaxWorkers {
		return usagef("--workers %d is out of range; give 1 to %d, or 0 for one per core (%d here)", b.Workers, builder.MaxWorkers, runtime.NumCPU())
	}
	opts := builder.Options{CountOnly: b.CountOnly, Force: b.Force, Workers: b.Workers, Shard: shard, AsClasses: b.AsClasses, Notices: e.stderr,
		NewProgress: func(label, unit string) builder.Progress { return newProgress(e.stderr, label, unit) }}
	names := b.Puzzles
	if len(names) == 0 {
		names = defaultBuild
	}
	var puzzles []canon.Puzzle
	var puzzleNames []string
	for _, name := range names {
		ps, err := canon.ParsePuzzles(name)
		if err != nil {
			return err
		}
		for _, p := range ps {
			if err := builder.Check(p, opts); err != nil {
				return buildRemedy(p, opts, err)
			}
			puzzles = append(puzzles, p)
			puzzleNames = append(puzzleNames, p.String())
		}
	}
	if err := checkOtherShards(e, puzzles, opts); err != nil {
		return err
	}
	cat, err := catalog.Create(e.ctx, e.cli.DB, e.holder(puzzleNames))
	if err != nil {
		return err
	}
	defer cat.Close()
	cat.SetNotices(e.stderr)
	engine := &builder.Builder{Cat: cat}
	var built []catalog.Record
	out := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	defer out.Flush()
	text := format == records.Text
	for _, p := range puzzles {
		res, err := engine.Build(e.ctx, p, opts)
		if err != nil {
			if cat.Created() && len(built) == 0 && nothingSaved(err) {
				cat.Discard() // a failed creation leaves no file behind
			}
			return err
		}
		rec := res.Record
		switch {
		case res.Outcome == builder.ShardDone:
			if text {
				fmt.Fprintf(out, "%s\tshard %s already done; use --force to redo it\n", p, shard)
			}
			continue
		case !text:
		case res.Outcome == builder.AlreadyBuilt:
			fmt.Fprintf(out, "%s\talready built: %d solutions, %d classes; use --force to rebuild\n", p, rec.Solutions, rec.Classes)
		case rec.Storage == catalog.StorageShard:
			fmt.Fprintf(out, "%s\tshard %s done\t%.2fs\tmerge the %d shard catalogs with 'solcat merge OUT SHARD...'\n", p, shard, rec.BuildSeconds, shard.Of)
		default:
			fmt.Fprintf(out, "%s\t%d solutions, %d classes\tmatches OEIS\t%.2fs\t%s\n", p, rec.Solutions, rec.Classes, rec.BuildSeconds, rec.Storage)
		}
		built = append(built, rec)
	}
	if format != records.Text {
		p := records.NewPrinter(e.stdout, format, !b.NoHeaders)
		for _, r := range built {
			p.Write(records.RecordObject(r))
		}
		return p.Close()
	}
	return nil
}

// checkOtherShards refuses, before the catalog is opened for writing (which
// touches it), a shard build into a catalog holding another shard.
func checkOtherShards(e *env, puzzles []canon.Puzzle, opts builder.Options) error {
	if opts.Shard.Of == 0 {
		return nil
	}
	cat, err := catalog.Open(e.ctx, e.cli.DB)
	if err != nil {
		return nil // a new catalog; Create says what is wrong with any other
	}
	defer cat.Close()
	for _, p := range puzzles {
		if err := builder.CheckOtherShard(e.ctx, cat, p, opts); err != nil {
			return err
		}
	}
	return nil
}

// nothingSaved reports whether a failed build saved none of its work.
func nothingSaved(err error) bool {
	var stopped *builder.StoppedError
	return !errors.As(err, &stopped) || stopped.Done == 0
}
