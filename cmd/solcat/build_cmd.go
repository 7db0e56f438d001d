package main

import (
	"database/sql"
	"fmt"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/enumerate"
	"solcat/query"
)

// solverVersion is recorded with every build, so a catalog says which
// enumerators produced it. solcat-2: queens counts by the join counter.
const solverVersion = "solcat-2"

var defaultBuild = []string{"magic:1-4", "queens:1-14"}

type buildCmd struct {
	Puzzles   []string `arg:"" optional:"" name:"puzzle" help:"Puzzles to build: KIND:N or KIND:A-B (default: magic:1-4 queens:1-14)."`
	Force     bool     `help:"Rebuild puzzles that are already complete."`
	CountOnly bool     `name:"count-only" help:"Count solutions, classes and the orbit split without storing solutions (queens up to N=21, magic:5 with counts by centre). Resumable: run the same command again after an interruption."`
	Workers   int      `help:"Search goroutines (default: one per core). The catalog is the same for any value." default:"0"`
	Shard     string   `placeholder:"I/K" help:"Build only shard I of K into this catalog: with --count-only the work units whose index mod K is I-1; stored queens, the solutions whose first-row queen is in the I-th of K column ranges. Combine the K shard catalogs with 'solcat merge'."`
}

func (b *buildCmd) Help() string {
	return `A build commits its rows in units (about a million rows each for the
largest puzzles). Interrupted, even by SIGKILL, it loses at most the unit in
flight: run the same command again and it resumes. Until it finishes,
queries on the puzzle say how far it is, and a puzzle being rebuilt with
--force keeps answering from its previous build. Every count is compared
with the published values (OEIS A006052, A000170, A002562, A260318,
A260320); a mismatch fails the build.

Examples:
  solcat build                      # magic:1-4 and queens:1-14
  solcat build queens:15 --workers 2
  solcat build magic:4 --force      # rebuild
  solcat build queens:18-20 --count-only
  solcat build magic:5 --count-only   # 2,202,441,792 squares, about 2 minutes
  solcat build magic:5                # stores its 275,305,224 classes (see the README)
  solcat --db /tmp/cat.db build queens:1-8`
}

func (b *buildCmd) Run(e *env) error {
	format, err := e.format(query.Text, query.Text, query.JSON)
	if err != nil {
		return err
	}
	if b.Workers < 0 || b.Workers > maxWorkers {
		return usagef("--workers %d is out of range; give 1 to %d, or 0 for one per core (%d here)", b.Workers, maxWorkers, runtime.NumCPU())
	}
	shard, err := parseShard(b.Shard)
	if err != nil {
		return err
	}

	names := b.Puzzles
	if len(names) == 0 {
		names = defaultBuild
	}
	var puzzles []canon.Puzzle
	for _, name := range names {
		ps, err := canon.ParsePuzzles(name)
		if err != nil {
			return err
		}
		for _, p := range ps {
			if err := enumerate.Supported(p, b.CountOnly); err != nil {
				return usageError{err}
			}
			switch {
			case shard.of == 0 || b.CountOnly:
			case p.Kind == canon.Magic && p.N == 5:
				return usagef("--shard: a stored magic:5 is built whole (about 6 minutes on 2 cores); split magic:5 --count-only instead")
			case p.Kind == canon.Magic:
				return usagef("--shard: %s builds in under a second; build it whole, or split magic:5 --count-only", p)
			case shard.of > p.N:
				return usagef("--shard %d/%d: a stored %s splits by the first row's queen into at most %d shards", shard.i, shard.of, p, p.N)
			}
		}
		puzzles = append(puzzles, ps...)
	}
	names = names[:0:0]
	for _, p := range puzzles {
		names = append(names, p.String())
	}
	cat, err := catalog.Create(e.ctx, e.cli.DB, e.holder(names))
	if err != nil {
		return err
	}
	defer cat.Close()

	var built []catalog.Record
	out := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	for _, p := range puzzles {
		rec, ok, err := cat.Puzzle(e.ctx, p.String())
		if err != nil {
			return err
		}
		_, building, err := cat.Building(e.ctx, p.String())
		if err != nil {
			return err
		}
		if saved, has, err := cat.ShardOf(e.ctx, p.String()); err != nil {
			return err
		} else if has && saved.Done && saved.Shard == shard.i && saved.Of == shard.of && saved.Layout == b.shardLayout(p) && !b.Force && !building {
			if format == query.Text {
				fmt.Fprintf(out, "%s\tshard %d/%d already done; use --force to redo it\n", p, shard.i, shard.of)
			}
			continue
		}
		// Counts alone do not stop a build that stores the puzzle.
		if ok && rec.Storage == catalog.StorageClasses && !building && !b.Force {
			removeStaleSort(e)
		}
		if ok && !b.Force && !building && (rec.Storage != catalog.StorageCounts || b.CountOnly) {
			if format == query.Text {
				fmt.Fprintf(out, "%s\talready built: %d solutions, %d classes; use --force to rebuild\n", p, rec.Solutions, rec.Classes)
			}
			built = append(built, rec)
			continue
		}
		switch {
		case b.CountOnly:
			rec, err = b.count(e, cat, p, shard)
		case p.Kind == canon.Magic && p.N == 5:
			rec, err = b.storeMagic5(e, cat, p)
		default:
			rec, err = b.build(e, cat, p, shard)
		}
		if err != nil {
			out.Flush()
			return err
		}
		// Read back what was committed: the record as info shows it (name, content hash).
		if stored, ok, err := cat.Puzzle(e.ctx, p.String()); err == nil && ok {
			rec = stored
		}
		built = append(built, rec)
		switch {
		case format != query.Text:
		case rec.Storage == catalog.StorageShard:
			fmt.Fprintf(out, "%s\tshard %d/%d done\t%.2fs\tmerge the %d shard catalogs with 'solcat merge OUT SHARD...'\n", p, shard.i, shard.of, rec.BuildSeconds, shard.of)
		default:
			fmt.Fprintf(out, "%s\t%d solutions, %d classes\tmatches OEIS\t%.2fs\t%s\n", p, rec.Solutions, rec.Classes, rec.BuildSeconds, rec.Storage)
		}
	}
	if format == query.JSON {
		return writeJSON(e.stdout, infoRecords(built))
	}
	return out.Flush()
}

// maxWorkers bounds --workers: more goroutines than this only cost memory.
const maxWorkers = 1024

// workers is --workers, with 0 meaning one per core.
func (b *buildCmd) workers() int {
	if b.Workers == 0 {
		return runtime.NumCPU()
	}
	return b.Workers
}

// unitRows is how many rows a stored build commits at a time: about 64
// units per puzzle, at least 4096 rows and at most about a million, so a
// killed build loses seconds of work. It depends on the puzzle only.
func unitRows(known enumerate.Known) int64 {
	rows := (known.Solutions + known.Classes) / 64
	unit := int64(4096)
	for unit < rows && unit < 1<<20 {
		unit *= 2
	}
	return unit
}

// shardLayout is the layout a shard of p made by this build records.
func (b *buildCmd) shardLayout(p canon.Puzzle) string {
	if b.CountOnly {
		return newCountPlan(p).layout()
	}
	return storedSplitLayout(p)
}

// storedLayout names how a stored build of p is cut into units: a saved
// build with another layout starts over.
func storedLayout(p canon.Puzzle) string {
	known, _ := enumerate.KnownCounts(p)
	return fmt.Sprintf("%s, %d rows per unit, solution blocks", solverVersion, unitRows(known))
}

// storedSplit ends the layout of a stored build split into shards.
const storedSplit = ", stored by first row"

// storedSplitLayout names how a stored build is split into shards.
func storedSplitLayout(p canon.Puzzle) string { return storedLayout(p) + storedSplit }

// build enumerates p and writes its classes and solutions unit by unit,
// resuming a saved build of it if there is one, compares the counts with
// the published ones and puts the puzzle in place.
func (b *buildCmd) build(e *env, cat *catalog.Catalog, p canon.Puzzle, shard shardSpec) (catalog.Record, error) {
	start := time.Now()
	known, _ := enumerate.KnownCounts(p)
	plan := catalog.BuildPlan{
		UnitRows:  unitRows(known),
		RowsTotal: known.Solutions + known.Classes,
		Shard:     shard.of > 0,
		CellBytes: p.Len(),
		Classes:   known.Classes,
	}
	plan.Layout = storedLayout(p)
	part := enumerate.FirstRows{From: 0, To: p.N}
	splitLayout := storedSplitLayout(p) // the same in every shard: merge checks it
	if shard.of > 0 {
		part = shard.firstRows(p.N)
		plan.RowsTotal = plan.RowsTotal * int64(part.To-part.From) / int64(p.N) // about
		plan.Layout = splitLayout + shard.String()
	}
	w, err := beginWriting(e, cat, p, plan)
	if err != nil {
		return catalog.Record{}, err
	}
	defer w.Rollback()
	if why := w.Discarded(); why != "" {
		fmt.Fprintf(e.stderr, "%s: the saved unfinished build could not be resumed (%s); starting over\n", p, why)
	}
	if resumed := w.Resumed(); resumed > 0 {
		fmt.Fprintf(e.stderr, "%s: resuming from %d%% saved by an earlier run\n", p, 100*resumed/max(plan.RowsTotal, 1))
	}
	workers := b.workers()
	bar := newProgress(e.stderr, p.String())
	opt := enumerate.Options{Workers: workers, Progress: bar.update}
	rec := catalog.Record{
		Kind: string(p.Kind), N: p.N, Storage: catalog.StorageSolutions, Workers: workers,
		BuiltAt: start.UTC().Format(time.RFC3339), SolverVersion: solverVersion,
	}
	if p.Kind == canon.Queens {
		err = storeQueens(e, w, p, opt, &rec, part, shard.i <= 1)
	} else {
		err = storeClassified(e, w, p, opt, &rec)
	}
	bar.finish()
	if err == nil && shard.of > 0 {
		err = w.CommitShard(catalog.Shard{Shard: shard.i, Of: shard.of, Layout: splitLayout, Units: part.To - part.From})
		rec.Storage, rec.BuildSeconds = catalog.StorageShard, time.Since(start).Seconds()
	} else if err == nil {
		if err = checkKnown(p, &rec); err != nil {
			w.Rollback() // Abandon needs the catalog's one connection
			cat.Abandon(e.ctx, p.String())
			return rec, err
		}
		rec.BuildSeconds = time.Since(start).Seconds()
		err = w.Commit(rec)
	}
	if err != nil {
		return rec, buildStopped(e, p, w, err, "rows")
	}
	return rec, nil
}

// beginWriting opens the writer of a stored build. Ctrl-C while it opens
// (the driver then reports only a cancelled context) is an interruption
// like any other: what earlier runs saved stays.
func beginWriting(e *env, cat *catalog.Catalog, p canon.Puzzle, plan catalog.BuildPlan) (*catalog.Writer, error) {
	w, err := cat.Begin(e.ctx, p.String(), plan, 0)
	if err != nil && e.ctx.Err() != nil {
		return nil, fmt.Errorf("interrupted while %s's tables were being opened; run the same command to resume", p)
	}
	return w, err
}

// buildStopped rolls back the unit in flight of a stored build that failed
// or was interrupted, and says how much is saved and how to go on. what
// names the units Saved counts (rows, classes).
func buildStopped(e *env, p canon.Puzzle, w *catalog.Writer, err error, what string) error {
	w.Rollback()
	done, total := w.Saved()
	saved := fmt.Sprintf("%d%% of %s is saved (%d of %d %s)", 100*done/max(total, 1), p, done, total, what)
	msg := err.Error()
	if !strings.HasPrefix(msg, p.String()) {
		err = fmt.Errorf("%s: %w", p, err)
	}
	// A bug or a full disk is named even when an interrupt came at the
	// same time: it is what the user has to act on.
	switch {
	case strings.Contains(msg, "this is a bug"):
		return err // says itself what was stored
	case strings.Contains(msg, "disk I/O error") || strings.Contains(msg, "disk is full"):
		return fmt.Errorf("%w; %s: free disk space (or raise the file size limit) and run the same command to resume", err, saved)
	case e.ctx.Err() != nil: // the driver may report a cancelled context as a closed statement
		return fmt.Errorf("interrupted: %s; run the same command to resume", saved)
	}
	return fmt.Errorf("%w; %s: run the same command to resume once the cause is fixed", err, saved)
}

// storeQueens writes queens:n from the symmetry-reduced search: classes
// first, then their members in lexicographic order.
func storeQueens(e *env, w *catalog.Writer, p canon.Puzzle, opt enumerate.Options, rec *catalog.Record, part enumerate.FirstRows, classes bool) error {
	var written int64
	counts, err := enumerate.QueensCatalogPart(e.ctx, p.N, opt, part,
		func(id int64, form []byte, orbit int) error {
			if !classes {
				return nil // a shard after the first: the first writes the classes
			}
			// The queens properties are the symmetry type, which the orbit gives.
			return w.AddClass(id, form, orbit, uint32(canon.SymmetryType(orbit).Stored()))
		},
		w.SetFirstID,
		func(sol []byte, class int64, from canon.Symmetry) error {
			written++
			return w.AddSolution(sol, class, int(from))
		})
	if err != nil {
		return err
	}
	if part.From == 0 && part.To == p.N && written != counts.Solutions() {
		return fmt.Errorf("%s: %d solutions written but the classes have %d members; nothing was stored (this is a bug, please report it)", p, written, counts.Solutions())
	}
	rec.Solutions, rec.Classes, rec.SearchNodes = written, counts.Classes(), counts.Nodes
	rec.SetOrbits(counts.Orbits)
	return nil
}

// storeClassified writes a puzzle from its plain lexicographic enumeration,
// classifying each solution as it streams in (magic squares).
func storeClassified(e *env, w *catalog.Writer, p canon.Puzzle, opt enumerate.Options, rec *catalog.Record) error {
	classifier := canon.NewClassifier(p)
	stats, err := enumerate.All(e.ctx, p, opt, func(sol []byte) error {
		place, err := classifier.Add(sol)
		if err != nil {
			return err
		}
		if place.NewClass {
			if err := w.AddClass(place.ClassID, sol, place.Orbit, uint32(p.Properties(sol).Stored())); err != nil {
				return err
			}
		}
		return w.AddSolution(sol, place.ClassID, int(place.From))
	})
	if err != nil {
		return err
	}
	rec.Solutions, rec.Classes, rec.SearchNodes = stats.Solutions, classifier.Classes(), stats.Nodes
	rec.SetOrbits(classifier.Orbits)
	return nil
}

// checkKnown compares rec's counts with the published ones, records the
// result, and fails loudly on any difference.
func checkKnown(p canon.Puzzle, rec *catalog.Record) error {
	known, ok := enumerate.KnownCounts(p)
	if !ok {
		return fmt.Errorf("%s has no published counts to check against; refusing to store unchecked counts", p)
	}
	rec.KnownSolutions = sql.NullInt64{Int64: known.Solutions, Valid: true}
	rec.KnownClasses = sql.NullInt64{Int64: known.Classes, Valid: true}
	if m := known.Mismatch(rec.Solutions, rec.Classes, rec.Orbits()); m != "" {
		return fmt.Errorf("%s: found %s; nothing was stored (this is a bug, please report it)", p, m)
	}
	rec.Verified = true
	return nil
}
