package enumerate

import (
	"context"
	"math"
	"os"
	"testing"

	"solcat/canon"
)

func queensKnown(t *testing.T, n int) canon.Known {
	t.Helper()
	k, ok := canon.KnownCounts(canon.Puzzle{Kind: canon.Queens, N: n})
	if !ok {
		t.Fatalf("no published count for queens:%d", n)
	}
	return k
}

// The symmetric searches, counting whole boards, give the solutions each
// rotation keeps, which the published orbit split fixes: a class of 2 is
// kept by both turns, a class of 4 by the half turn only.
func TestSymmetricSolutionsCounted(t *testing.T) {
	for n := 2; n <= 14; n++ {
		k := queensKnown(t, n)
		for _, quarter := range []bool{false, true} {
			want := 2 * k.Orbits[2]
			if !quarter {
				want += 4 * k.Orbits[4]
			}
			p := symmetricProber{n: n, quarter: quarter}
			if got := p.count(&symmetricBoard{}); got != want {
				t.Errorf("queens:%d quarter=%v: %d symmetric solutions, want %d", n, quarter, got, want)
			}
		}
	}
}

// Up to queensExactRows every probe counts the whole board, so the
// estimate is exact and its error zero.
func TestQueensEstimateExactBelowTheCut(t *testing.T) {
	for n := 1; n <= queensExactRows; n++ {
		terms, err := QueensEstimate(NewQueensConstraint(n))
		if err != nil {
			t.Fatal(err)
		}
		r, err := RunEstimate(context.Background(), terms, EstimateOptions{Seed: 1, Probes: 2, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		k := queensKnown(t, n)
		if r.Solutions.Mean != float64(k.Solutions) || r.Solutions.StdErr != 0 || r.Classes.Mean != float64(k.Classes) || r.Classes.StdErr != 0 {
			t.Errorf("queens:%d: %v / %v, want exactly %d solutions and %d classes", n, r.Solutions, r.Classes, k.Solutions, k.Classes)
		}
	}
}

func estimateQueens(t *testing.T, c QueensConstraint, seed uint64, probes int64, workers int) EstimateResult {
	t.Helper()
	terms, err := QueensEstimate(c)
	if err != nil {
		t.Fatal(err)
	}
	r, err := RunEstimate(context.Background(), terms, EstimateOptions{Seed: seed, Probes: probes, Workers: workers})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func within(q Quantity, exact float64, sigmas float64) bool {
	return math.Abs(q.Mean-exact) <= sigmas*q.StdErr
}

// Past the cut the estimate is random; over many probes it lies within a
// few standard errors of the published count, for solutions and classes.
func TestQueensEstimateNearPublished(t *testing.T) {
	for _, n := range []int{12, 13, 14} {
		k := queensKnown(t, n)
		r := estimateQueens(t, NewQueensConstraint(n), 7, 4000, 2)
		if !within(r.Solutions, float64(k.Solutions), 4) || !within(r.Classes, float64(k.Classes), 4) {
			t.Errorf("queens:%d: %.0f ± %.0f solutions and %.0f ± %.0f classes, published %d and %d",
				n, r.Solutions.Mean, r.Solutions.StdErr, r.Classes.Mean, r.Classes.StdErr, k.Solutions, k.Classes)
		}
		if r.Solutions.StdErr == 0 || r.Probes != 4000 {
			t.Errorf("queens:%d: %d probes with error %v; want 4000 probes and some error", n, r.Probes, r.Solutions.StdErr)
		}
	}
}

// Filtered estimates aim at the constrained counter's exact answers.
func TestQueensEstimateFiltered(t *testing.T) {
	cases := []struct {
		name  string
		n     int
		cells [][3]int // row, col, 1 queen / 0 empty
	}{
		{"corner", 12, [][3]int{{0, 0, 1}}},
		{"two queens", 13, [][3]int{{0, 2, 1}, {12, 6, 1}}},
		{"empties", 14, [][3]int{{0, 0, 0}, {0, 1, 0}, {5, 5, 0}, {13, 7, 0}}},
		{"bottom queen", 14, [][3]int{{13, 3, 1}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := NewQueensConstraint(tc.n)
			for _, cell := range tc.cells {
				if cell[2] == 1 {
					c.Queen(cell[0], cell[1])
				} else {
					c.Empty(cell[0], cell[1])
				}
			}
			exact, err := CountQueensConstrained(context.Background(), c, 2)
			if err != nil {
				t.Fatal(err)
			}
			r := estimateQueens(t, c, 3, 4000, 2)
			if r.HasClasses {
				t.Errorf("a filtered estimate claims classes")
			}
			if !within(r.Solutions, float64(exact), 4) {
				t.Errorf("%.1f ± %.1f, exact %d", r.Solutions.Mean, r.Solutions.StdErr, exact)
			}
		})
	}
}

// A seed and a probe count give the same numbers on any number of workers;
// another seed gives others.
func TestEstimateRepeatable(t *testing.T) {
	c := NewQueensConstraint(16)
	a := estimateQueens(t, c, 11, 3000, 1)
	b := estimateQueens(t, c, 11, 3000, 2)
	d := estimateQueens(t, c, 12, 3000, 2)
	if a.Solutions != b.Solutions || a.Classes != b.Classes || a.AllProbes != b.AllProbes {
		t.Errorf("1 worker %v %v, 2 workers %v %v", a.Solutions, a.Classes, b.Solutions, b.Classes)
	}
	if d.Solutions == a.Solutions {
		t.Errorf("seeds 11 and 12 gave the same estimate %v", a.Solutions)
	}
}

func TestEstimateNeedsAStop(t *testing.T) {
	terms, _ := QueensEstimate(NewQueensConstraint(8))
	if _, err := RunEstimate(context.Background(), terms, EstimateOptions{}); err != ErrNoStop {
		t.Errorf("no stop: %v, want ErrNoStop", err)
	}
	if _, err := QueensEstimate(NewQueensConstraint(33)); err == nil {
		t.Errorf("queens:33 estimated")
	}
}

func longEstimates(t *testing.T) {
	t.Helper()
	if testing.Short() || os.Getenv("SOLCAT_LONG") == "" {
		t.Skip("long: set SOLCAT_LONG=1 to run the estimators' calibration")
	}
}

// Calibration: over 100 seeds, the 95% interval covers the exact count in
// 90 to 99 runs of 100, for solutions, classes and a filtered count.
func TestQueensEstimateCalibrated(t *testing.T) {
	longEstimates(t)
	corner14 := NewQueensConstraint(14)
	corner14.Queen(0, 0)
	exact14, err := CountQueensConstrained(context.Background(), corner14, 2)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		c       QueensConstraint
		classes bool
		exact   float64
	}{
		{"queens:12", NewQueensConstraint(12), false, float64(queensKnown(t, 12).Solutions)},
		{"queens:13 classes", NewQueensConstraint(13), true, float64(queensKnown(t, 13).Classes)},
		{"queens:14", NewQueensConstraint(14), false, float64(queensKnown(t, 14).Solutions)},
		{"queens:16", NewQueensConstraint(16), false, float64(queensKnown(t, 16).Solutions)},
		{"queens:14 corner", corner14, false, float64(exact14)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			covered := 0
			for seed := uint64(1); seed <= 100; seed++ {
				r := estimateQueens(t, tc.c, seed, 2000, 2)
				q := r.Solutions
				if tc.classes {
					q = r.Classes
				}
				if lo, hi := q.Interval95(); lo <= tc.exact && tc.exact <= hi {
					covered++
				}
			}
			if covered < 90 || covered > 99 {
				t.Errorf("the 95%% interval covered the exact %.0f in %d of 100 runs, want 90 to 99", tc.exact, covered)
			}
			t.Logf("%s: covered in %d of 100", tc.name, covered)
		})
	}
}

// The published counts past exact reach here, queens:24 to 27 (A000170),
// lie in the estimates' 99.9% intervals after a few seconds each.
func TestQueensEstimateAgreesPastReach(t *testing.T) {
	longEstimates(t)
	published := map[int]float64{
		24: 227514171973736, 25: 2207893435808352,
		26: 22317699616364044, 27: 234907967154122528,
	}
	for n := 24; n <= 27; n++ {
		r := estimateQueens(t, NewQueensConstraint(n), 1, 200000, 2)
		if !within(r.Solutions, published[n], 3.3) {
			t.Errorf("queens:%d: %.6g ± %.2g, published %.6g", n, r.Solutions.Mean, r.Solutions.StdErr, published[n])
		}
		t.Logf("queens:%d: %.6g ± %.3f%% (published %.6g) in %v", n, r.Solutions.Mean, 100*r.Solutions.Relative(), published[n], r.Elapsed)
	}
}

// Knuth's estimate of the search's nodes aims at the exact number.
func TestSearchNodesEstimated(t *testing.T) {
	for _, n := range []int{10, 12} {
		c := NewQueensConstraint(n)
		c.Empty(1, 3)
		exact := float64(searchNodes(c.propagated().Allowed, 0, 0, 0, 0))
		got := SearchNodes(c, 20000, 1)
		if math.Abs(got-exact) > 0.1*exact {
			t.Errorf("queens:%d: %.0f nodes estimated, %0.f exactly", n, got, exact)
		}
	}
	if r := SearchRate(); r < 1e6 {
		t.Errorf("the search visits %.0f nodes a second", r)
	}
}
