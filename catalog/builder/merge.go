package builder

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/catfile"
	"solcat/enumerate"
)

// ErrBadSplit means the shard files given to a merge are not one whole
// split made by this solcat: nothing is written.
var ErrBadSplit = errors.New("not the shards of one split")

// A MergePlan is a checked merge: every shard of each split present once,
// finished, made with this solcat's layout.
type MergePlan struct {
	puzzles []mergedPuzzle
	counts  []*CountUnits // the units of split board counts
}

type mergedPuzzle struct {
	p         canon.Puzzle
	files     []shardFile
	rec       catalog.Record      // counts: the summed record
	breakdown []catalog.Breakdown // counts: magic:5's by centre and property
	stored    []string            // stored: the shard files in shard order
}

// shardFile is one puzzle's shard as found in one file.
type shardFile struct {
	path  string
	shard catalog.Shard
	units []catalog.UnitCounts
}

// PlanMerge reads and checks the shard catalogs at paths, writing nothing.
func PlanMerge(ctx context.Context, paths []string) (*MergePlan, error) {
	byPuzzle := map[string][]shardFile{}
	byCount := map[string]*CountUnits{}
	for _, path := range paths {
		cat, err := catalog.Open(ctx, path)
		if err != nil {
			return nil, err
		}
		shards, err := cat.Work().Shards(ctx)
		var units []catalog.SavedUnits
		if err == nil {
			units, err = cat.Kept().AllSavedUnits(ctx)
		}
		if err == nil {
			err = gatherUnits(byCount, path, units)
		}
		if err == nil && len(shards) == 0 && len(units) == 0 {
			err = fmt.Errorf("%w: %s holds no shard of a build, nor units of a count", ErrBadSplit, path)
		}
		for _, s := range shards {
			if err != nil {
				break
			}
			var units []catalog.UnitCounts
			units, err = cat.Work().DoneUnits(ctx, s.Puzzle)
			byPuzzle[s.Puzzle] = append(byPuzzle[s.Puzzle], shardFile{path, s, units})
		}
		cat.Close()
		if err != nil {
			return nil, err
		}
	}
	names := make([]string, 0, len(byPuzzle))
	for name := range byPuzzle {
		names = append(names, name)
	}
	sort.Strings(names)
	plan := &MergePlan{counts: sortedUnits(byCount)}
	for _, name := range names {
		files := byPuzzle[name]
		p, err := canon.ParsePuzzle(name)
		if err != nil {
			return nil, err
		}
		m := mergedPuzzle{p: p, files: files}
		switch files[0].shard.Layout {
		case storedSplitLayout(p):
			if err := checkSplit(name, files, storedSplitLayout(p)); err != nil {
				return nil, err
			}
			m.stored = make([]string, len(files))
			for _, f := range files {
				m.stored[f.shard.Shard-1] = f.path
			}
			if _, err := catalog.ShardsFit(ctx, p, m.stored); err != nil {
				if errors.Is(err, catalog.ErrShardsApart) {
					err = fmt.Errorf("%w: %w", ErrBadSplit, err)
				}
				return nil, err
			}
		default:
			if m.rec, m.breakdown, err = mergeCounts(ctx, p, files); err != nil {
				return nil, err
			}
		}
		plan.puzzles = append(plan.puzzles, m)
	}
	return plan, nil
}

// Puzzles names the puzzles the merge writes: records, or units of counts.
func (m *MergePlan) Puzzles() []string {
	var out []string
	for _, p := range m.puzzles {
		out = append(out, p.p.String())
	}
	for _, c := range m.counts {
		if len(out) == 0 || out[len(out)-1] != c.Puzzle {
			out = append(out, c.Puzzle)
		}
	}
	return out
}

// ErrOutputHolds means a merge's output already holds a puzzle the merge
// would write: nothing is written unless the merge is told to replace it.
var ErrOutputHolds = errors.New("already holds")

// Clear checks that out (at path) holds none of the puzzles the merge
// writes, finished, unfinished or as a shard; with replace it clears them
// instead, as build --force does.
func (m *MergePlan) Clear(ctx context.Context, out *catalog.Catalog, path string, replace bool) error {
	recs, err := out.Puzzles(ctx)
	if err != nil {
		return err
	}
	shards, err := out.Work().Shards(ctx)
	if err != nil {
		return err
	}
	underway, err := UnderWay(ctx, out, path)
	if err != nil {
		return err
	}
	held := map[string]string{}
	for _, r := range recs {
		held[r.Name] = fmt.Sprintf("%s (stored as %s)", r.Name, r.Storage)
	}
	for _, s := range shards {
		held[s.Puzzle] = fmt.Sprintf("shard %d/%d of %s", s.Shard, s.Of, s.Puzzle)
	}
	for _, u := range underway {
		// Not "running": the merge holds out's lock (another writer would
		// have been refused it), which marks every build as written now.
		held[u.Puzzle.String()] = "an unfinished build of " + u.Puzzle.String()
	}
	if !replace {
		for _, c := range m.counts {
			if err := c.clashes(ctx, out, path); err != nil {
				return err
			}
		}
	}
	var clash []string
	for _, mp := range m.puzzles {
		name := mp.p.String()
		if what, ok := held[name]; ok {
			clash = append(clash, what)
			if replace {
				if err := out.Forget(ctx, name); err != nil {
					return err
				}
			}
		}
	}
	if len(clash) > 0 && !replace {
		return fmt.Errorf("%s %w %s", path, ErrOutputHolds, strings.Join(clash, ", "))
	}
	return nil
}

// Merged is one puzzle a merge wrote, or (Count not nil) the units of
// one count.
type Merged struct {
	Record catalog.Record
	Shards int
	Count  *CountUnits
}

// Into writes the merged puzzles into out: count shards summed, stored
// shards copied in solution ID order with their content hash computed
// anew, each checked against the published counts like any build.
func (m *MergePlan) Into(ctx context.Context, out *catalog.Catalog) ([]Merged, error) {
	var done []Merged
	for _, mp := range m.puzzles {
		start := time.Now()
		rec := mp.rec
		searchNodes, seconds := mp.shardWork()
		if mp.stored != nil {
			tally := newStoredTally(mp.p)
			err := out.MergeStored(ctx, mp.p, mp.stored, func(form []byte, orbit int, props uint32) {
				tally.add(form, orbit, canon.Property(props))
			}, func(r *catalog.Record) ([]catalog.Breakdown, error) {
				r.Kind, r.N, r.SolverVersion, r.SearchNodes = mp.p.Kind, mp.p.N, SolverVersion, searchNodes
				r.BuiltAt, r.BuildSeconds = start.UTC().Truncate(time.Second), seconds+time.Since(start).Seconds()
				rows := tally.breakdown(*r)
				err := checkKnown(mp.p, r, rows...)
				rec = *r
				return rows, err
			})
			if err != nil {
				return done, err
			}
		} else {
			rec.BuildSeconds = seconds + time.Since(start).Seconds()
			if err := out.RecordCounts(ctx, rec, mp.breakdown); err != nil {
				return done, err
			}
		}
		done = append(done, Merged{Record: rec, Shards: len(mp.files)})
	}
	for _, c := range m.counts {
		if err := c.into(ctx, out); err != nil {
			return done, err
		}
		done = append(done, Merged{Count: c, Shards: c.Files})
	}
	return done, nil
}

// shardWork is the work the shards record: a merged puzzle's build time
// is the sum of its shards' (its workers, which were on machines of their
// own, are recorded as 0). Each shard of a stored queens build searches
// all the classes, so their search nodes are those of the unsplit build,
// the same in every shard. (Count shards' nodes are summed from their
// units instead.)
func (mp mergedPuzzle) shardWork() (searchNodes int64, seconds float64) {
	for _, f := range mp.files {
		searchNodes, seconds = max(searchNodes, f.shard.Nodes), seconds+f.shard.Seconds
	}
	return searchNodes, seconds
}

// checkSplit checks that files hold each shard of one split of puzzle
// exactly once, all finished and made with the given layout.
func checkSplit(name string, files []shardFile, layout catalog.Layout) error {
	first := files[0]
	seen := map[int]string{}
	for _, f := range files {
		s := f.shard
		switch {
		case s.Of != first.shard.Of:
			return fmt.Errorf("%w: %s: %s holds shard %d of a split in %d, %s shard %d of a split in %d",
				ErrBadSplit, name, f.path, s.Shard, s.Of, first.path, first.shard.Shard, first.shard.Of)
		case !s.Possible():
			return fmt.Errorf("%w: %s: %s says it holds shard %d of %d, which no split has (the file is damaged)", ErrBadSplit, name, f.path, s.Shard, s.Of)
		case s.Layout != layout && first.shard.Layout == layout:
			return fmt.Errorf("%w: %s: %s was made by %q, %s by %q (machines with and without AVX-512 count with different counters: count every shard on one kind)", ErrBadSplit, name, f.path, s.Layout, first.path, layout)
		case s.Layout != layout:
			return fmt.Errorf("%w: %s: %s was made by %q, this solcat makes %q", ErrBadSplit, name, f.path, s.Layout, layout)
		case seen[s.Shard] != "":
			return fmt.Errorf("%w: %s: shard %d/%d is in both %s and %s; each shard is given once", ErrBadSplit, name, s.Shard, s.Of, seen[s.Shard], f.path)
		case !s.Done:
			return fmt.Errorf("%w: %s: shard %d/%d in %s is not finished", ErrBadSplit, name, s.Shard, s.Of, f.path)
		}
		seen[s.Shard] = f.path
	}
	// Name the first few missing shards, however large the split.
	var missing []string
	for i := 1; i <= first.shard.Of && len(missing) < 10; i++ {
		if seen[i] == "" {
			missing = append(missing, fmt.Sprint(i))
		}
	}
	switch left := first.shard.Of - len(seen); {
	case left > len(missing):
		return fmt.Errorf("%w: %s: %d of %d shards missing (%s, ...)", ErrBadSplit, name, left, first.shard.Of, strings.Join(missing, ", "))
	case left > 0:
		return fmt.Errorf("%w: %s: shard(s) %s of %d missing", ErrBadSplit, name, strings.Join(missing, ", "), first.shard.Of)
	}
	return nil
}

// mergeCounts checks the shards of a split count-only build and sums
// their units.
func mergeCounts(ctx context.Context, p canon.Puzzle, files []shardFile) (catalog.Record, []catalog.Breakdown, error) {
	name := p.String()
	plan := countPlanOf(p, files[0].shard.Layout)
	if err := checkSplit(name, files, plan.layout()); err != nil {
		return catalog.Record{}, nil, err
	}
	first := files[0]
	counts := make([]enumerate.ClassCounts, len(plan.prefixes))
	found := make([]bool, len(plan.prefixes))
	for _, f := range files {
		spec := Shard{f.shard.Shard, f.shard.Of}
		for _, u := range f.units {
			if !plan.owns(u) || !spec.Has(u.Unit) || found[u.Unit] {
				return catalog.Record{}, nil, fmt.Errorf("%w: %s: %s holds unit %d, which is not one of its shard's", ErrBadSplit, name, f.path, u.Unit)
			}
			found[u.Unit] = true
			counts[u.Unit] = unitCounts(u)
		}
	}
	for i, ok := range found {
		if !ok {
			return catalog.Record{}, nil, fmt.Errorf("%w: %s: unit %d is in no shard (it belongs to shard %d)", ErrBadSplit, name, i, i%first.shard.Of+1)
		}
	}
	rec, breakdown, err := plan.record(ctx, p, counts, 0)
	if err == nil {
		rec.BuiltAt, rec.SolverVersion = time.Now().UTC().Truncate(time.Second), SolverVersion
		err = checkKnown(p, &rec)
	}
	if errors.Is(err, ErrBug) {
		// The units of a whole build add up to the published counts: these
		// do not, so a shard file was damaged or altered.
		return rec, nil, fmt.Errorf("%w: %s: the shards' units do not add up to the published counts, so a shard file is damaged or altered; count the shards again", ErrBadSplit, name)
	}
	return rec, breakdown, err
}

// MergeFiles merges the shard catalogs at paths into the catalog at out,
// written for holder. Every shard is checked before anything is written;
// an output that already holds a merged puzzle is refused before it is
// opened for writing (which touches it) unless force; an output this
// merge made is removed again if the merge writes nothing into it.
func MergeFiles(ctx context.Context, out string, paths []string, force bool, holder catfile.Holder) ([]Merged, error) {
	plan, err := PlanMerge(ctx, paths)
	if err != nil {
		return nil, err
	}
	_, statErr := os.Stat(out)
	isNew := errors.Is(statErr, fs.ErrNotExist)
	if !isNew && !force {
		if ro, err := catalog.Open(ctx, out); err == nil {
			err = plan.Clear(ctx, ro, out, false)
			ro.Close()
			if err != nil {
				return nil, err
			}
		}
	}
	holder.Puzzles = plan.Puzzles()
	cat, err := catalog.Create(ctx, out, holder)
	if err != nil {
		if isNew && ctx.Err() != nil {
			catfile.Remove(out) // interrupted while it was being made
		}
		return nil, err
	}
	defer cat.Close()
	err = plan.Clear(ctx, cat, out, force)
	var merged []Merged
	if err == nil {
		merged, err = plan.Into(ctx, cat)
	}
	if err != nil && isNew && len(merged) == 0 {
		cat.Discard() // made for this merge, which wrote nothing
	}
	return merged, err
}
