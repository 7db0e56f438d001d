package catalog

import (
	"context"
	"database/sql"
	"time"
)

// An Estimate is a count past exact reach, by Monte Carlo probes, with its
// standard error, 95% interval, effort and seed (see migration 00016).
type Estimate struct {
	Puzzle        string
	Question      []byte
	Filter        string
	Solutions     float64
	SolutionsSE   float64
	SolutionsLow  float64
	SolutionsHigh float64

	// The classes' estimate, where the run made one; nil where not.
	Classes, ClassesSE, ClassesLow, ClassesHigh *float64

	Method     string
	Seed       int64
	Probes     int64
	Seconds    float64
	Workers    int
	RecordedAt string // UTC, RFC 3339
	Unsealed   bool   // does not match its seal
}

// estimateRow is an estimate's row in the estimates table.
type estimateRow struct {
	Puzzle        string          `db:"puzzle"`
	Question      []byte          `db:"question"`
	Filter        string          `db:"filter"`
	Solutions     float64         `db:"solutions"`
	SolutionsSE   float64         `db:"solutions_se"`
	SolutionsLow  float64         `db:"solutions_low"`
	SolutionsHigh float64         `db:"solutions_high"`
	Classes       sql.NullFloat64 `db:"classes"`
	ClassesSE     sql.NullFloat64 `db:"classes_se"`
	ClassesLow    sql.NullFloat64 `db:"classes_low"`
	ClassesHigh   sql.NullFloat64 `db:"classes_high"`
	Method        string          `db:"method"`
	Seed          int64           `db:"seed"`
	Probes        int64           `db:"probes"`
	Seconds       float64         `db:"seconds"`
	Workers       int             `db:"workers"`
	RecordedAt    string          `db:"recorded_at"`
	Seal          string          `db:"seal"`
}

func nullable(v *float64) sql.NullFloat64 {
	if v == nil {
		return sql.NullFloat64{}
	}
	return sql.NullFloat64{Float64: *v, Valid: true}
}

func optional(v sql.NullFloat64) *float64 {
	if !v.Valid {
		return nil
	}
	return &v.Float64
}

func estimateRowOf(e Estimate) estimateRow {
	return estimateRow{Puzzle: e.Puzzle, Question: e.Question, Filter: e.Filter,
		Solutions: e.Solutions, SolutionsSE: e.SolutionsSE, SolutionsLow: e.SolutionsLow, SolutionsHigh: e.SolutionsHigh,
		Classes: nullable(e.Classes), ClassesSE: nullable(e.ClassesSE), ClassesLow: nullable(e.ClassesLow), ClassesHigh: nullable(e.ClassesHigh),
		Method: e.Method, Seed: e.Seed, Probes: e.Probes, Seconds: e.Seconds, Workers: e.Workers, RecordedAt: e.RecordedAt}
}

func (r estimateRow) estimate() Estimate {
	return Estimate{Puzzle: r.Puzzle, Question: r.Question, Filter: r.Filter,
		Solutions: r.Solutions, SolutionsSE: r.SolutionsSE, SolutionsLow: r.SolutionsLow, SolutionsHigh: r.SolutionsHigh,
		Classes: optional(r.Classes), ClassesSE: optional(r.ClassesSE), ClassesLow: optional(r.ClassesLow), ClassesHigh: optional(r.ClassesHigh),
		Method: r.Method, Seed: r.Seed, Probes: r.Probes, Seconds: r.Seconds, Workers: r.Workers, RecordedAt: r.RecordedAt}
}

// keep keeps an estimate. One with the same seed is the same stream of
// probes: the one with more probes is kept.
func (est Estimate) keep(ctx context.Context, c *Catalog) error {
	e := estimateRowOf(est)
	if e.RecordedAt == "" {
		e.RecordedAt = time.Now().UTC().Format(time.RFC3339)
	}
	e.Seal = sealOfEstimate(e)
	defer c.checkpoint.Committed()
	_, err := c.db.NamedExecContext(ctx, `INSERT INTO estimates (puzzle, question, filter, solutions, solutions_se, solutions_low, solutions_high,
			classes, classes_se, classes_low, classes_high, method, seed, probes, seconds, workers, recorded_at, seal)
		VALUES (:puzzle, :question, :filter, :solutions, :solutions_se, :solutions_low, :solutions_high,
			:classes, :classes_se, :classes_low, :classes_high, :method, :seed, :probes, :seconds, :workers, :recorded_at, :seal)
		ON CONFLICT (puzzle, question, seed) DO UPDATE SET
			filter = excluded.filter, solutions = excluded.solutions, solutions_se = excluded.solutions_se,
			solutions_low = excluded.solutions_low, solutions_high = excluded.solutions_high,
			classes = excluded.classes, classes_se = excluded.classes_se, classes_low = excluded.classes_low,
			classes_high = excluded.classes_high, method = excluded.method, probes = excluded.probes,
			seconds = excluded.seconds, workers = excluded.workers, recorded_at = excluded.recorded_at, seal = excluded.seal
		WHERE excluded.probes > estimates.probes OR excluded.method <> estimates.method`, e)
	return err
}

// Estimates lists the estimates kept for a puzzle ("" for every puzzle),
// by puzzle, filter and seed. A catalog of an older solcat has none.
func (k *Kept) Estimates(ctx context.Context, puzzle string) ([]Estimate, error) {
	c := k.c
	var rows []estimateRow
	if ok, err := hasTable(ctx, c.db, "estimates"); err != nil || !ok {
		return nil, err
	}
	err := c.db.SelectContext(ctx, &rows, "SELECT * FROM estimates WHERE ? = '' OR puzzle = ? ORDER BY puzzle, filter, seed", puzzle, puzzle)
	var out []Estimate
	for _, r := range rows {
		e := r.estimate()
		e.Unsealed = c.sealed(ctx) && r.Seal != sealOfEstimate(r)
		out = append(out, e)
	}
	return out, err
}
