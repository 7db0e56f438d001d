package query_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/catalog/catfile"
	"solcat/query"
)

// storedQueens12 is queens:12 stored solution by solution, for the
// benchmarks to scan its blocks (the test catalog holds it as classes),
// built once when a benchmark first asks.
var storedQueens12 = sync.OnceValues(func() (string, error) {
	ctx := context.Background()
	db := filepath.Join(filepath.Dir(testCatalog), "queens12-stored.db")
	cat, err := catalog.Create(ctx, db, catfile.Holder{})
	if err != nil {
		return "", err
	}
	defer cat.Close()
	_, err = (&builder.Builder{Cat: cat}).Build(ctx, mustPuzzle("queens:12"), builder.Options{})
	return db, err
})

// BenchmarkScans runs the three scans on queens:12 (14,200 solutions,
// 1,787 classes) with the same two cells, neither a prefix: a block scan of
// it stored solution by solution, and, stored as its classes, a class scan
// (a count) and a class expansion (the list). ns/row is per row read:
// solutions for the block scan, classes for the others.
func BenchmarkScans(b *testing.B) {
	ctx := context.Background()
	cells := query.Filter{Cells: []query.Cell{{Row: 6, Col: 6, Value: 1}, {Row: 2, Col: 4, Value: 1}}}
	for _, bc := range []struct {
		name   string
		stored bool // queens:12 stored solution by solution, else as its classes
		ask    query.Ask
		way    query.Way
	}{
		{"block scan", true, query.AskCount, query.BlockScan},
		{"class scan", false, query.AskCount, query.ClassScan},
		{"class expansion", false, query.AskList, query.ClassExpand},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			db := testCatalog
			if bc.stored {
				var err error
				if db, err = storedQueens12(); err != nil {
					b.Fatal(err)
				}
			}
			tg := bind(b, db, "queens:12")
			plan, err := tg.Plan(ctx, query.Question{Ask: bc.ask, Filter: cells, Window: query.Window{Limit: -1}})
			if err != nil || plan.Way != bc.way {
				b.Fatalf("planned as %v, %v; want %s", plan, err, bc.way)
			}
			var n int64
			for b.Loop() {
				if bc.ask == query.AskList {
					n = 0
					err = tg.List(ctx, plan, func(query.Solution) error { n++; return nil })
				} else {
					n, err = tg.Count(ctx, plan)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			if n != 118 { // the queens:12 solutions with queens on 6,6 and 2,4
				b.Fatalf("%d solutions match, want 118", n)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(plan.Reads()), "ns/row")
			b.ReportMetric(float64(plan.Workers), "workers")
		})
	}
}

// bind binds a puzzle of the catalog db, for a test or benchmark.
func bind(tb testing.TB, db, name string) *query.BoundPuzzle {
	tb.Helper()
	ctx := context.Background()
	cat, err := catalog.Open(ctx, db)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cat.Close() })
	rec, ok, err := cat.Puzzle(ctx, name)
	if err != nil || !ok {
		tb.Fatalf("%s: %v", name, err)
	}
	tg, err := query.Bind(ctx, cat, mustPuzzle(name), rec)
	if err != nil {
		tb.Fatal(err)
	}
	return tg
}
