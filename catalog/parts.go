package catalog

import "context"

// A catalog's methods are grouped by who asks: the data of its puzzles on
// Catalog itself, what a build leaves unfinished on Work, the answers and
// estimates worked out after a build on Kept, and the checks verify makes
// beyond a puzzle's content on Health. Each is the same open catalog.

// Work is a catalog's unfinished work, which the builder saves and
// resumes: the builds under way, the finished units of count-only builds,
// and the shards of split builds.
type Work struct{ c *Catalog }

// Work is the catalog's unfinished work.
func (c *Catalog) Work() *Work { return &Work{c} }

// Kept is what a catalog keeps of the questions worked out after a build:
// answers, estimates, and the units of an answer being counted.
type Kept struct{ c *Catalog }

// Kept is what the catalog keeps of questions worked out after a build.
func (c *Catalog) Kept() *Kept { return &Kept{c} }

// A Result is what a catalog keeps of a question worked out after a
// build: an Answer or an Estimate.
type Result interface {
	keep(ctx context.Context, c *Catalog) error
}

// Keep keeps r: an answer replaces the one to the same question; of two
// estimates with the same seed (the same stream of probes), the one with
// more probes is kept.
func (k *Kept) Keep(ctx context.Context, r Result) error { return r.keep(ctx, k.c) }

// Health is what verify checks of a catalog beyond its puzzles' content:
// SQLite's integrity check, tables and records that disagree, the lookup
// tables, saved builds and recorded counts.
type Health struct{ c *Catalog }

// Health is the catalog's checks beyond its puzzles' content.
func (c *Catalog) Health() *Health { return &Health{c} }
