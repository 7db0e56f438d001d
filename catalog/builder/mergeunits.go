package builder

import (
	"context"
	"fmt"
	"sort"

	"solcat/catalog"
)

// Shards of a split board count (count --shard I/K) hold no shard mark:
// each holds the units it counted, saved under the count's question, as
// any long count saves them. A merge gathers every file's units of each
// question into the output, each unit once; the count run there without a
// shard finds them saved, counts what none of them saved and checks the
// total against the published count.

// CountUnits is the units of one count a merge gathers.
type CountUnits struct {
	Puzzle   string
	Question []byte // the count's unit key
	Units    int    // how many units the count has in all
	Saved    int    // of them, held by the files merged
	Files    int    // the files that held some
	units    map[int]int64
	from     map[int]string // the file each unit came from
}

// gatherUnits adds the units a file at path saved to byKey, refusing a
// unit two files give different counts of, and a count split into
// different numbers of units (made by different solcats).
func gatherUnits(byKey map[string]*CountUnits, path string, saved []catalog.SavedUnits) error {
	for _, s := range saved {
		key := s.Puzzle + "\x00" + string(s.Question)
		m := byKey[key]
		if m == nil {
			m = &CountUnits{Puzzle: s.Puzzle, Question: s.Question, Units: s.Units, units: map[int]int64{}, from: map[int]string{}}
			byKey[key] = m
		}
		if m.Units != s.Units {
			return fmt.Errorf("%w: %s: %s saved a count in %d units, %s the same count in %d (made by different solcats): count every shard with one", ErrBadSplit, s.Puzzle, path, s.Units, m.anyFile(), m.Units)
		}
		m.Files++
		for u, n := range s.Saved {
			if old, ok := m.units[u]; ok && old != n {
				return fmt.Errorf("%w: %s: unit %d of a count is %d in %s and %d in %s, so one file is damaged or altered; count its shard again into a new file", ErrBadSplit, s.Puzzle, u, old, m.from[u], n, path)
			}
			m.units[u], m.from[u] = n, path
		}
		m.Saved = len(m.units)
	}
	return nil
}

// anyFile names a file that held the count's units.
func (m *CountUnits) anyFile() string {
	for _, path := range m.from {
		return path
	}
	return "another file"
}

// sortedUnits lists the gathered counts by puzzle and question.
func sortedUnits(byKey map[string]*CountUnits) []*CountUnits {
	out := make([]*CountUnits, 0, len(byKey))
	for _, m := range byKey {
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Puzzle != out[j].Puzzle {
			return out[i].Puzzle < out[j].Puzzle
		}
		return string(out[i].Question) < string(out[j].Question)
	})
	return out
}

// clashes says which of the gathered units out (at path) already holds
// with another count: with replace they are overwritten instead.
func (m *CountUnits) clashes(ctx context.Context, out *catalog.Catalog, path string) error {
	held, err := out.Kept().SavedAnswerUnits(ctx, m.Puzzle, m.Question, m.Units)
	if err != nil {
		return err
	}
	for u, n := range held {
		if mine, ok := m.units[u]; ok && mine != n {
			return fmt.Errorf("%s %w unit %d of a %s count as %d, where %s gives %d", path, ErrOutputHolds, u, m.Puzzle, n, m.from[u], mine)
		}
	}
	return nil
}

// into saves the gathered units in out, beside those it holds.
func (m *CountUnits) into(ctx context.Context, out *catalog.Catalog) error {
	return out.Kept().SaveAnswerUnits(ctx, m.Puzzle, m.Question, m.Units, m.units)
}
