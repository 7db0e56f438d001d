package query_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"solcat/canon"
	"solcat/query"
)

// TestBoardCountsAgainstPlainSearch: the board counts of queens:1 to 12,
// as if nothing were stored (totals, classes, orbit sizes, symmetry
// properties, cells, cells up to symmetry), equal those of a plain search
// with every solution tested one by one, and the published ones.
func TestBoardCountsAgainstPlainSearch(t *testing.T) {
	ctx := context.Background()
	for n := 1; n <= 12; n++ {
		p := canon.Puzzle{Kind: canon.Queens, N: n}
		solutions := plainQueens(n)
		for _, prop := range []canon.Property{canon.Toroidal, canon.Superqueen} {
			cells := func(rcv ...int) []query.Cell {
				var out []query.Cell
				for i := 0; i+2 < len(rcv); i += 3 {
					if rcv[i] <= n && rcv[i+1] <= n {
						out = append(out, query.Cell{Row: rcv[i], Col: rcv[i+1], Value: rcv[i+2]})
					}
				}
				return out
			}
			type question struct {
				f       query.Filter
				classes bool
			}
			questions := []question{
				{query.Filter{Props: prop}, false},
				{query.Filter{Props: prop}, true},
				{query.Filter{Props: prop, Orbit: 2}, true},
				{query.Filter{Props: prop, Orbit: 4}, false},
				{query.Filter{Props: prop | canon.Asymmetric}, true},
				{query.Filter{Props: prop | canon.Rot90Symmetric}, false},
				{query.Filter{Props: prop, Cells: cells(1, 2, 1)}, false},
				{query.Filter{Props: prop, Cells: cells(2, 1, 0, 3, 5, 1)}, false},
				{query.Filter{Props: prop, Cells: cells(1, 3, 1), UpToSymmetry: true}, false},
				{query.Filter{Props: prop, Cells: cells(2, 2, 1, 4, 1, 0), UpToSymmetry: true}, false},
			}
			for _, q := range questions {
				name := fmt.Sprintf("%s %s classes=%v", p, q.f.String(p), q.classes)
				var want int64
				forms := map[string]bool{}
				for _, s := range solutions {
					if plainMatches(q.f, s) {
						want++
						forms[s.form] = true
					}
				}
				if q.classes {
					want = int64(len(forms))
				}
				b, err := query.PlanBoardCount(p, q.f, q.classes, 2)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				got, kept, err := b.Count(ctx, nil, nil, nil)
				if err != nil || got != want {
					t.Errorf("%s: counted %d (%v), plain search %d", name, got, err, want)
				}
				if len(kept) == 0 || kept[0].Puzzle != p.String() {
					t.Errorf("%s: keeps %v", name, kept)
				}
			}
			k, ok := canon.KnownWithProperty(p, prop)
			var all int64
			for _, s := range solutions {
				if s.props&prop != 0 {
					all++
				}
			}
			if !ok || k.Solutions != all {
				t.Errorf("%s %s: plain search %d, published %d", p, prop, all, k.Solutions)
			}
		}
	}
}

// TestBoardCountPublishedMismatch: a count that differs from the published
// one is an error, neither printed nor kept.
func TestBoardCountPublishedMismatch(t *testing.T) {
	defer query.SetPublished(func(p canon.Puzzle, prop canon.Property) (canon.Known, bool) {
		k, ok := canon.KnownWithProperty(p, prop)
		k.Solutions++
		return k, ok
	})()
	p := canon.Puzzle{Kind: canon.Queens, N: 11}
	for _, prop := range []canon.Property{canon.Toroidal, canon.Superqueen} {
		b, err := query.PlanBoardCount(p, query.Filter{Props: prop}, true, 2)
		if err != nil {
			t.Fatal(err)
		}
		n, kept, err := b.Count(context.Background(), nil, nil, nil)
		if !errors.Is(err, query.ErrPublished) || n != 0 || kept != nil {
			t.Errorf("%s: %d, %v, %v; want the published count's error", prop, n, kept, err)
		}
		// Under cells nothing is published: counted.
		b, err = query.PlanBoardCount(p, query.Filter{Props: prop, Cells: []query.Cell{{Row: 1, Col: 1, Value: 0}}}, false, 2)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := b.Count(context.Background(), nil, nil, nil); err != nil {
			t.Errorf("%s under a cell: %v", prop, err)
		}
	}
}

// TestBoardCountUnitKeys: the units of the toroidal count cut by the
// torus's maps are saved under a key of their own, so that units an
// earlier scheme saved under the question's key are not mixed in; other
// counts use the question's key.
func TestBoardCountUnitKeys(t *testing.T) {
	for _, tc := range []struct {
		n      int
		prop   canon.Property
		scheme bool
	}{{13, canon.Toroidal, true}, {13, canon.Superqueen, false}, {12, canon.Toroidal, false}} {
		p := canon.Puzzle{Kind: canon.Queens, N: tc.n}
		b, err := query.PlanBoardCount(p, query.Filter{Props: tc.prop}, false, 1)
		if err != nil {
			t.Fatal(err)
		}
		key := string(b.UnitKey())
		if got := len(key) > 2 && key[len(key)-2:] == "/G"; got != tc.scheme {
			t.Errorf("%s %s: unit key %q", p, tc.prop, key)
		}
	}
}
