package catalog

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"solcat/catalog/catfile"
)

// Integrity runs SQLite's integrity check and returns what it reports:
// "ok", or up to limit lines naming the damage. A catalog too damaged to
// check returns that as its one line, not as an error.
func (h *Health) Integrity(ctx context.Context, limit int) []string {
	c := h.c
	var lines []string
	err := c.db.SelectContext(ctx, &lines, fmt.Sprintf("PRAGMA integrity_check(%d)", limit))
	if err != nil {
		return []string{catfile.DamageError(c.path, err).Error()}
	}
	return lines
}

// puzzleTablePrefixes begin the names of the tables (and view) a stored
// puzzle owns; the rest of the name is the puzzle's (queens_8).
var puzzleTablePrefixes = []string{"classes_", "solution_blocks_", "solutions_", "props_", "orbits_", "block_index_", "class_index_", "class_checks_"}

// Orphans checks that the catalog's puzzle tables and its records agree:
// it names the tables no record, unfinished build or shard accounts for,
// and the records whose tables are missing.
func (h *Health) Orphans(ctx context.Context) ([]string, error) {
	c := h.c
	var objects []struct {
		Name string `db:"name"`
		Type string `db:"type"`
	}
	if err := c.db.SelectContext(ctx, &objects, "SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name"); err != nil {
		return nil, catfile.DamageError(c.path, err)
	}
	owned := map[string][]string{}  // puzzle -> its tables
	staged := map[string][]string{} // puzzle -> its staging tables
	tables := map[string]bool{}
	for _, o := range objects {
		tables[o.Name] = o.Type == "table"
		for _, prefix := range puzzleTablePrefixes {
			rest, ok := strings.CutPrefix(o.Name, prefix)
			if !ok || rest == "" {
				continue
			}
			// solutions_queens_8_raw, classes_queens_8_raw and (schema 13)
			// classes_queens_8_readable are queens:8's.
			rest = strings.TrimSuffix(strings.TrimSuffix(rest, rawSuffix), readableSuffix)
			if base, ok := strings.CutSuffix(rest, stagingSuffix); ok {
				staged[puzzleName(base)] = append(staged[puzzleName(base)], o.Name)
			} else {
				owned[puzzleName(rest)] = append(owned[puzzleName(rest)], o.Name)
			}
			break
		}
	}
	recs, err := c.Puzzles(ctx)
	if err != nil {
		return nil, catfile.DamageError(c.path, err)
	}
	builds, err := c.Work().Builds(ctx)
	if err != nil {
		return nil, catfile.DamageError(c.path, err)
	}
	shards, err := c.Work().Shards(ctx)
	if err != nil {
		return nil, catfile.DamageError(c.path, err)
	}
	var problems []string
	recorded := map[string]bool{}
	for _, r := range recs {
		recorded[r.Name] = true
		_, cls := puzzleTables(r.Name)
		for _, problem := range storageProblems(r, owned[r.Name], tables[cls]) {
			problems = append(problems, r.Name+": "+problem)
		}
	}
	for _, s := range shards {
		recorded[s.Puzzle] = true
	}
	for _, name := range slices.Sorted(maps.Keys(owned)) {
		if !recorded[name] {
			problems = append(problems, fmt.Sprintf("%s: the tables %s have no record in puzzles (a puzzle whose record was deleted)", name, strings.Join(owned[name], ", ")))
		}
	}
	building := map[string]bool{}
	for _, b := range builds {
		building[b.Puzzle] = true
	}
	for _, name := range slices.Sorted(maps.Keys(staged)) {
		if !building[name] {
			problems = append(problems, fmt.Sprintf("%s: the build tables %s belong to no unfinished build", name, strings.Join(staged[name], ", ")))
		}
	}
	return problems, nil
}

// puzzleName turns the end of a table's name back into the puzzle's:
// queens_8 is queens:8.
func puzzleName(suffix string) string {
	kind, n, ok := strings.Cut(suffix, "_")
	if !ok {
		return suffix
	}
	return kind + ":" + n
}
