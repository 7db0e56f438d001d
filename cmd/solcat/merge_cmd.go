package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/enumerate"
)

type mergeCmd struct {
	Out    string   `arg:"" name:"out" help:"Catalog to write the merged puzzles into (created if needed)."`
	Shards []string `arg:"" name:"shard" help:"Shard catalogs made by 'solcat build PUZZLE [--count-only] --shard I/K'."`
}

func (m *mergeCmd) Help() string {
	return `Combines the shard catalogs of a split build into one catalog. Every
shard of the split must be given once and be finished, all made by the same
solver with the same split; otherwise nothing is written. Count shards are
summed; stored shards are copied in solution ID order and their content
hash is computed anew, so the result equals a build in one process. The
merged counts are checked against the published values like any build.

Examples:
  solcat --db s1.db build queens:20 --count-only --shard 1/4   # ... up to 4/4
  solcat merge queens20.db s1.db s2.db s3.db s4.db
  solcat --db q1.db build queens:16 --shard 1/2                # stored
  solcat merge all.db shards/*.db`
}

// shardFile is one puzzle's shard as found in one file.
type shardFile struct {
	path  string
	shard catalog.Shard
	units []catalog.UnitCounts
}

func (m *mergeCmd) Run(e *env) error {
	byPuzzle := map[string][]shardFile{}
	for _, path := range m.Shards {
		if catalog.IsOwnFile(path, m.Out) {
			return usagef("the output %s is the shard %s or one of its files; write the merge to a new file", m.Out, path)
		}
		cat, err := catalog.Open(e.ctx, path)
		if err != nil {
			return err
		}
		shards, err := cat.Shards(e.ctx)
		if err == nil && len(shards) == 0 {
			err = usagef("%s holds no shard; give catalogs made with 'solcat build PUZZLE --shard I/K'", path)
		}
		for _, s := range shards {
			if err != nil {
				break
			}
			var units []catalog.UnitCounts
			units, err = cat.DoneUnits(e.ctx, s.Puzzle)
			byPuzzle[s.Puzzle] = append(byPuzzle[s.Puzzle], shardFile{path, s, units})
		}
		cat.Close()
		if err != nil {
			return err
		}
	}
	names := make([]string, 0, len(byPuzzle))
	for name := range byPuzzle {
		names = append(names, name)
	}
	sort.Strings(names)
	// Check every puzzle before writing anything.
	type merged struct {
		rec       catalog.Record
		breakdown []catalog.Breakdown
		stored    []string // a stored build's shard files, in shard order
	}
	var results []merged
	for _, name := range names {
		files := byPuzzle[name]
		p, err := canon.ParsePuzzle(name)
		if err != nil {
			return err
		}
		if strings.HasSuffix(files[0].shard.Layout, storedSplit) {
			if err := checkSplit(name, files, storedSplitLayout(p)); err != nil {
				return err
			}
			paths := make([]string, len(files))
			for _, f := range files {
				paths[f.shard.Shard-1] = f.path
			}
			results = append(results, merged{rec: catalog.Record{Name: name}, stored: paths})
			continue
		}
		rec, breakdown, err := mergeCounts(e.ctx, p, files)
		if err != nil {
			return err
		}
		results = append(results, merged{rec: rec, breakdown: breakdown})
	}
	out, err := catalog.Create(e.ctx, m.Out, e.holder(names))
	if err != nil {
		return err
	}
	defer out.Close()
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	for _, r := range results {
		if r.stored != nil {
			start := time.Now()
			p, _ := canon.ParsePuzzle(r.rec.Name)
			err := out.MergeStored(e.ctx, r.rec.Name, p.Len(), r.stored, func(rec *catalog.Record) error {
				rec.Kind, rec.N, rec.SolverVersion = string(p.Kind), p.N, solverVersion
				rec.BuiltAt, rec.BuildSeconds = start.UTC().Format(time.RFC3339), time.Since(start).Seconds()
				r.rec = *rec
				return checkKnown(p, rec)
			})
			if err != nil {
				return err
			}
		} else if err := out.RecordCounts(e.ctx, r.rec, r.breakdown); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s\t%d solutions, %d classes\tmatches OEIS\tmerged from %d shards\n", r.rec.Name, r.rec.Solutions, r.rec.Classes, len(byPuzzle[r.rec.Name]))
	}
	return w.Flush()
}

// checkSplit checks that files hold each shard of one split of puzzle
// exactly once, all finished and made with the given layout.
func checkSplit(name string, files []shardFile, layout string) error {
	first := files[0]
	seen := map[int]string{}
	for _, f := range files {
		s := f.shard
		switch {
		case s.Of != first.shard.Of:
			return usagef("%s: %s holds shard %d of a split in %d, %s shard %d of a split in %d; merge the shards of one split",
				name, f.path, s.Shard, s.Of, first.path, first.shard.Shard, first.shard.Of)
		case s.Layout != layout:
			return usagef("%s: %s was made by %q, this solcat makes %q; merge shards made by this solcat", name, f.path, s.Layout, layout)
		case seen[s.Shard] != "":
			return usagef("%s: shard %d/%d is in both %s and %s; give each shard once", name, s.Shard, s.Of, seen[s.Shard], f.path)
		case !s.Done:
			return usagef("%s: shard %d/%d in %s is not finished; run its build again to finish it", name, s.Shard, s.Of, f.path)
		}
		seen[s.Shard] = f.path
	}
	var missing []string
	for i := 1; i <= first.shard.Of; i++ {
		if seen[i] == "" {
			missing = append(missing, fmt.Sprint(i))
		}
	}
	if len(missing) > 0 {
		return usagef("%s: shard(s) %s of %d missing; give the catalogs of all %d shards", name, strings.Join(missing, ", "), first.shard.Of, first.shard.Of)
	}
	return nil
}

// mergeCounts checks the shards of a split count-only build and sums
// their units.
func mergeCounts(ctx context.Context, p canon.Puzzle, files []shardFile) (catalog.Record, []catalog.Breakdown, error) {
	name := p.String()
	plan := newCountPlan(p)
	if err := checkSplit(name, files, plan.layout()); err != nil {
		return catalog.Record{}, nil, err
	}
	first := files[0]
	counts := make([]enumerate.ClassCounts, len(plan.prefixes))
	found := make([]bool, len(plan.prefixes))
	for _, f := range files {
		spec := shardSpec{f.shard.Shard, f.shard.Of}
		for _, u := range f.units {
			if !plan.owns(u) || !spec.has(u.Unit) || found[u.Unit] {
				return catalog.Record{}, nil, usagef("%s: %s holds unit %d, which is not one of its shard's; rebuild that shard", name, f.path, u.Unit)
			}
			found[u.Unit] = true
			counts[u.Unit] = unitCounts(u)
		}
	}
	for i, ok := range found {
		if !ok {
			return catalog.Record{}, nil, usagef("%s: unit %d is in no shard; rebuild shard %d", name, i, i%first.shard.Of+1)
		}
	}
	rec, breakdown, err := plan.record(ctx, p, counts, 0)
	if err != nil {
		return rec, nil, err
	}
	rec.BuiltAt, rec.SolverVersion = time.Now().UTC().Format(time.RFC3339), solverVersion
	if err := checkKnown(p, &rec); err != nil {
		return rec, nil, err
	}
	return rec, breakdown, nil
}
