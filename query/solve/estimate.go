package solve

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"solcat/canon"
	"solcat/enumerate"
)

// Estimates: counts past exact reach by the Monte Carlo probes of
// enumerate's estimators (see docs/algorithms.md, "Estimates"). The types
// of a run are the estimators' own, named here: the estimate command
// builds its options (with their Progress) on them.
type (
	// Quantity is an estimated number with its standard error.
	Quantity = enumerate.Quantity
	// EstimateOptions say when an estimate stops, how it draws its probes
	// and on how many goroutines.
	EstimateOptions = enumerate.EstimateOptions
	// EstimateResult is an estimate so far, or finished, and its effort.
	EstimateResult = enumerate.EstimateResult
)

// An Estimate is a question as the estimators take it: its streams of
// probes, the key every spelling and image of it shares (what a catalog
// keeps its estimates under), and the method, for the record.
type Estimate struct {
	terms    []enumerate.EstimateTerm
	Question []byte
	Method   string
}

// NewEstimate prepares the estimate of the solutions of p with the cells
// given (queens or magic squares), and of their classes when no cell is.
func NewEstimate(p canon.Puzzle, cells []Cell) (Estimate, error) {
	switch p.Kind {
	case canon.Queens:
		if p.N > MaxConstrainedQueens {
			return Estimate{}, fmt.Errorf("queens are estimated up to N=%d", MaxConstrainedQueens)
		}
		// The canonical image is estimated, so that every spelling of a
		// question, and every image of it, draws the same probes.
		c := Queens(p.N, cells).Canonical().c
		terms, err := enumerate.QueensEstimate(c)
		return Estimate{terms: terms, Question: c.Key(), Method: enumerate.QueensEstimateMethod(p.N)}, err
	case canon.Magic:
		fixed, key := canonicalMagicCells(p, cells)
		prober, err := enumerate.NewMagicProber(p.N, fixed)
		if err != nil {
			return Estimate{}, err
		}
		t := enumerate.EstimateTerm{Name: "squares", Prober: prober, Share: 1, Solutions: 1}
		if len(fixed) == 0 {
			// No square of order 2 or more is its own image under a
			// symmetry (two cells would hold one value): each class has 8.
			t.Classes = 1.0 / 8
			if p.N == 1 {
				t.Classes = 1
			}
		}
		return Estimate{terms: []enumerate.EstimateTerm{t}, Question: key, Method: enumerate.MagicEstimateMethod(p.N, len(fixed))}, nil
	}
	return Estimate{}, fmt.Errorf("%s cannot be estimated", p)
}

// canonicalMagicCells is the image of the cells, of the 8, whose key is
// least, 0-based, with that key: the squares of a filter and of its images
// are equal in number, so they are one question, and every spelling draws
// the same probes.
func canonicalMagicCells(p canon.Puzzle, cells []Cell) ([]enumerate.MagicCell, []byte) {
	var best []enumerate.MagicCell
	var bestKey []byte
	for _, s := range canon.All {
		image := make([]enumerate.MagicCell, 0, len(cells))
		for _, c := range cells {
			r, col := s.Map(p.N, c.Row-1, c.Col-1)
			image = append(image, enumerate.MagicCell{Row: r, Col: col, Value: c.Value})
		}
		slices.SortFunc(image, func(a, b enumerate.MagicCell) int {
			return cmp.Or(cmp.Compare(a.Row, b.Row), cmp.Compare(a.Col, b.Col), cmp.Compare(a.Value, b.Value))
		})
		key := []byte{'M', byte(p.N)}
		for _, c := range image {
			key = append(key, byte(c.Row), byte(c.Col), byte(c.Value))
		}
		if bestKey == nil || string(key) < string(bestKey) {
			best, bestKey = image, key
		}
	}
	return best, bestKey
}

// Terms names the estimate's streams of probes.
func (e Estimate) Terms() []string {
	var names []string
	for _, t := range e.terms {
		names = append(names, t.Name)
	}
	return names
}

// Run probes until a stop in opt. Stopped (Ctrl-C), the estimate so far
// comes back with the error.
func (e Estimate) Run(ctx context.Context, opt EstimateOptions) (EstimateResult, error) {
	return enumerate.RunEstimate(ctx, e.terms, opt)
}
