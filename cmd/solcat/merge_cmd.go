package main

import (
	"bytes"
	"fmt"
	"path/filepath"
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
	Shards []string `arg:"" name:"shard" help:"Shard catalogs made by 'solcat build PUZZLE --count-only --shard I/K'."`
}

func (m *mergeCmd) Help() string {
	return `Combines the shard catalogs of a split count-only build into one catalog.
Every shard of the split must be given once and be finished, all made by
the same solver with the same split; otherwise nothing is written. The
merged counts are checked against the published values like any build.

Examples:
  solcat --db s1.db build queens:20 --count-only --shard 1/4   # ... up to 4/4
  solcat merge queens20.db s1.db s2.db s3.db s4.db
  solcat merge all.db shards/*.db`
}

// shardFile is one puzzle's shard as found in one file.
type shardFile struct {
	path  string
	shard catalog.Shard
	units []catalog.UnitCounts
}

func (m *mergeCmd) Run(e *env) error {
	outAbs, _ := filepath.Abs(m.Out)
	byPuzzle := map[string][]shardFile{}
	for _, path := range m.Shards {
		if abs, _ := filepath.Abs(path); abs == outAbs {
			return usagef("the output %s is also given as a shard; write the merge to a new file", m.Out)
		}
		cat, err := catalog.Open(e.ctx, path)
		if err != nil {
			return err
		}
		shards, err := cat.Shards(e.ctx)
		if err == nil && len(shards) == 0 {
			err = usagef("%s holds no shard; give catalogs made with 'solcat build PUZZLE --count-only --shard I/K'", path)
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
	}
	var results []merged
	for _, name := range names {
		rec, breakdown, err := mergeShards(name, byPuzzle[name])
		if err != nil {
			return err
		}
		results = append(results, merged{rec, breakdown})
	}
	out, err := catalog.Create(e.ctx, m.Out)
	if err != nil {
		return err
	}
	defer out.Close()
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	for _, r := range results {
		if err := out.RecordCounts(e.ctx, r.rec, r.breakdown); err != nil {
			return err
		}
		fmt.Fprintf(w, "%s\t%d solutions, %d classes\tmatches OEIS\tmerged from %d shards\n", r.rec.Name, r.rec.Solutions, r.rec.Classes, len(byPuzzle[r.rec.Name]))
	}
	return w.Flush()
}

// mergeShards checks that files hold each shard of one split of puzzle
// exactly once, finished, and sums their units.
func mergeShards(name string, files []shardFile) (catalog.Record, []catalog.Breakdown, error) {
	p, err := canon.ParsePuzzle(name)
	if err != nil {
		return catalog.Record{}, nil, err
	}
	plan := newCountPlan(p)
	first := files[0]
	seen := map[int]string{}
	for _, f := range files {
		s := f.shard
		switch {
		case s.Of != first.shard.Of:
			return catalog.Record{}, nil, usagef("%s: %s holds shard %d of a split in %d, %s shard %d of a split in %d; merge the shards of one split",
				name, f.path, s.Shard, s.Of, first.path, first.shard.Shard, first.shard.Of)
		case s.Layout != plan.layout():
			return catalog.Record{}, nil, usagef("%s: %s was counted by %q, this solcat counts by %q; merge shards made by this solcat", name, f.path, s.Layout, plan.layout())
		case seen[s.Shard] != "":
			return catalog.Record{}, nil, usagef("%s: shard %d/%d is in both %s and %s; give each shard once", name, s.Shard, s.Of, seen[s.Shard], f.path)
		case !s.Done:
			return catalog.Record{}, nil, usagef("%s: shard %d/%d in %s is not finished (%d of %d units); run its build again to finish it", name, s.Shard, s.Of, f.path, len(f.units), s.Units)
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
		return catalog.Record{}, nil, usagef("%s: shard(s) %s of %d missing; give the catalogs of all %d shards", name, strings.Join(missing, ", "), first.shard.Of, first.shard.Of)
	}
	counts := make([]enumerate.ClassCounts, len(plan.prefixes))
	found := make([]bool, len(plan.prefixes))
	for _, f := range files {
		spec := shardSpec{f.shard.Shard, f.shard.Of}
		for _, u := range f.units {
			if u.Unit >= len(plan.prefixes) || !bytes.Equal(u.Prefix, plan.prefixes[u.Unit]) || !spec.has(u.Unit) || found[u.Unit] {
				return catalog.Record{}, nil, usagef("%s: %s holds unit %d, which is not one of its shard's; rebuild that shard", name, f.path, u.Unit)
			}
			found[u.Unit] = true
			counts[u.Unit] = enumerate.ClassCounts{Orbits: [9]int64{1: u.Orbit1, 2: u.Orbit2, 4: u.Orbit4, 8: u.Orbit8}, Nodes: u.Nodes}
		}
	}
	for i, ok := range found {
		if !ok {
			return catalog.Record{}, nil, usagef("%s: unit %d is in no shard; rebuild shard %d", name, i, i%first.shard.Of+1)
		}
	}
	rec, breakdown, err := plan.record(p, counts)
	if err != nil {
		return rec, nil, err
	}
	rec.BuiltAt, rec.SolverVersion = time.Now().UTC().Format(time.RFC3339), solverVersion
	if err := checkKnown(p, &rec); err != nil {
		return rec, nil, err
	}
	return rec, breakdown, nil
}
