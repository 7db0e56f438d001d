package records

import (
	"context"
	"io"
	"os"
	"testing"

	"solcat/canon"
	"solcat/catalog"
	"solcat/query"
)

// BenchmarkExport streams a stored puzzle of the catalog SOLCAT_EXPORT_DB
// (SOLCAT_EXPORT_PUZZLE, queens:16 unless set) to nothing and as Parquet,
// to tell the listing's cost from the writer's.
func BenchmarkExport(b *testing.B) {
	db := os.Getenv("SOLCAT_EXPORT_DB")
	if db == "" {
		b.Skip("set SOLCAT_EXPORT_DB to a catalog holding the puzzle")
	}
	name := os.Getenv("SOLCAT_EXPORT_PUZZLE")
	if name == "" {
		name = "queens:16"
	}
	ctx := context.Background()
	p, err := canon.ParsePuzzle(name)
	if err != nil {
		b.Fatal(err)
	}
	cat, err := catalog.Open(ctx, db)
	if err != nil {
		b.Fatal(err)
	}
	defer cat.Close()
	rec, _, err := cat.Puzzle(ctx, p.String())
	if err != nil {
		b.Fatal(err)
	}
	t, err := query.Bind(ctx, cat, p, rec)
	if err != nil {
		b.Fatal(err)
	}
	plan, err := t.Plan(ctx, query.Question{Ask: query.AskList, Window: query.Window{Limit: -1}})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		format Format
	}{{"none", ""}, {"parquet", Parquet}} {
		b.Run(c.name, func(b *testing.B) {
			var total int64
			for b.Loop() {
				var n int64
				var err error
				if c.format == "" {
					n, err = t.Stream(ctx, plan, query.Sink{Solution: func(query.Solution) error { return nil }}, query.Pause{})
				} else {
					n, err = Stream(ctx, t, plan, io.Discard, c.format, true, Dataset{Puzzle: p}, nil)
				}
				if err != nil {
					b.Fatal(err)
				}
				total += n
			}
			b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
