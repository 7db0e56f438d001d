package query_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"solcat/query"
)

// TestCountEstimatesWithin3x: --explain's time for a constrained count
// (on a puzzle recorded by its counts) and for a count past the counted
// sizes is within 3 times the count's real time, on 10 varied filters
// that take a few seconds each (long: SOLCAT_LONG=1). The real time is the
// count's processor time over its 2 workers, the wall time of a quiet
// machine, so that other work on a shared one does not count.
func TestCountEstimatesWithin3x(t *testing.T) {
	if testing.Short() || os.Getenv("SOLCAT_LONG") == "" {
		t.Skip("long: times 10 counts of a few seconds each; set SOLCAT_LONG=1")
	}
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "c.db")
	buildCatalog(t, db, true, "queens:18")
	plan, _ := bind(t, db, "queens:18").Plan(ctx, query.Question{Ask: query.AskCount})
	workers := plan.Workers
	// quietTime is how long what ran since began would take on a quiet
	// machine: its processor time over the workers, or its wall time if
	// shorter (a part that used fewer of them).
	quietTime := func(began time.Time, cpu time.Duration) time.Duration {
		return min(time.Since(began), (processorTime()-cpu)/time.Duration(workers))
	}
	within := func(t *testing.T, estimate, real time.Duration) {
		t.Logf("estimate %v, real %v", estimate.Round(time.Millisecond), real.Round(time.Millisecond))
		if estimate > 3*real || real > 3*estimate && real > time.Second {
			t.Errorf("estimate %v, real %v: more than 3 times apart", estimate, real)
		}
	}
	for _, cells := range [][]query.Cell{
		{{Row: 1, Col: 2, Value: 1}},
		{{Row: 1, Col: 1, Value: 0}},
		{{Row: 9, Col: 9, Value: 1}},
		{{Row: 1, Col: 2, Value: 1}, {Row: 3, Col: 5, Value: 1}},
		{{Row: 2, Col: 2, Value: 0}, {Row: 5, Col: 5, Value: 1}},
	} {
		f := query.Filter{Cells: cells}
		t.Run("queens:18 "+f.String(mustPuzzle("queens:18")), func(t *testing.T) {
			tg := bind(t, db, "queens:18")
			plan, err := tg.Plan(ctx, query.Question{Ask: query.AskCount, Filter: f})
			if err != nil {
				t.Fatal(err)
			}
			began := time.Now()
			left, err := tg.EstimateCount(ctx, plan)
			if err != nil {
				t.Fatal(err)
			}
			estimate := left + time.Since(began)
			// The count itself, timed whole from a fresh plan.
			plan, _ = tg.Plan(ctx, query.Question{Ask: query.AskCount, Filter: f})
			began = time.Now()
			cpu := processorTime()
			if _, err := tg.EstimateCount(ctx, plan); err != nil {
				t.Fatal(err)
			}
			if _, err := tg.Count(ctx, plan); err != nil {
				t.Fatal(err)
			}
			within(t, estimate, quietTime(began, cpu))
		})
	}
	for _, f := range []query.Filter{
		{Cells: []query.Cell{{Row: 1, Col: 1, Value: 1}, {Row: 2, Col: 3, Value: 1}, {Row: 3, Col: 5, Value: 1}, {Row: 4, Col: 7, Value: 1}, {Row: 5, Col: 9, Value: 1}, {Row: 6, Col: 11, Value: 1}}},
		{Cells: []query.Cell{{Row: 1, Col: 5, Value: 1}, {Row: 2, Col: 9, Value: 1}, {Row: 3, Col: 1, Value: 1}, {Row: 4, Col: 12, Value: 1}, {Row: 5, Col: 20, Value: 1}, {Row: 10, Col: 10, Value: 1}}},
		{Cells: []query.Cell{{Row: 1, Col: 2, Value: 1}, {Row: 2, Col: 4, Value: 1}, {Row: 3, Col: 6, Value: 1}, {Row: 4, Col: 8, Value: 1}, {Row: 12, Col: 12, Value: 1}, {Row: 24, Col: 13, Value: 1}}},
		{Cells: []query.Cell{{Row: 24, Col: 1, Value: 1}, {Row: 23, Col: 3, Value: 1}, {Row: 22, Col: 5, Value: 1}, {Row: 21, Col: 7, Value: 1}, {Row: 20, Col: 9, Value: 1}, {Row: 19, Col: 11, Value: 1}}},
		{Cells: []query.Cell{{Row: 1, Col: 3, Value: 1}, {Row: 2, Col: 6, Value: 1}, {Row: 3, Col: 9, Value: 1}, {Row: 4, Col: 12, Value: 1}, {Row: 5, Col: 2, Value: 1}, {Row: 6, Col: 16, Value: 1}, {Row: 7, Col: 20, Value: 1}}},
	} {
		p := mustPuzzle("queens:24")
		t.Run("queens:24 "+f.String(p), func(t *testing.T) {
			// Timed from the plan: its sample counts units that Run
			// then takes as counted, and s.Took includes them.
			began, cpu := time.Now(), processorTime()
			s, err := query.PlanSearchCount(ctx, p, f, workers)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := s.Run(ctx, nil, nil, nil); err != nil {
				t.Fatal(err)
			}
			within(t, s.Took, quietTime(began, cpu))
		})
	}
}

// processorTime is the processor time this process has used.
func processorTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
