package builder

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/catfile"
	"solcat/enumerate"
)

func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"1/4", "4/4", "0/4", "5/4", "1/1", "a/b", "1/", "/4", "1/4/2", "-1/4", "1/100001", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		spec, err := ParseShard(s)
		if err != nil {
			if !errors.Is(err, ErrBadShard) {
				t.Fatalf("%q: error %v is not ErrBadShard", s, err)
			}
			return
		}
		if s == "" {
			if spec.Of != 0 || !spec.Has(7) {
				t.Fatalf("no shard: %+v", spec)
			}
			return
		}
		if spec.I < 1 || spec.I > spec.Of {
			t.Fatalf("%q: shard %d of %d", s, spec.I, spec.Of)
		}
		// Every unit is in exactly one shard of the split.
		for unit := 0; unit < 3*spec.Of && unit < 1000; unit++ {
			in := 0
			for i := 1; i <= spec.Of && i <= 1000; i++ {
				if (Shard{i, spec.Of}).Has(unit) {
					in++
				}
			}
			if in != 1 && spec.Of <= 1000 {
				t.Fatalf("%q: unit %d is in %d shards", s, unit, in)
			}
		}
		// The first-row ranges of a stored split tile the columns.
		if n := 17; spec.Of <= n {
			next := 0
			for i := 1; i <= spec.Of; i++ {
				r := (Shard{i, spec.Of}).FirstRows(n)
				if r.From != next || r.To < r.From {
					t.Fatalf("%q: shard %d rows %+v after %d", s, i, r, next)
				}
				next = r.To
			}
			if next != n {
				t.Fatalf("%q: ranges end at %d, not %d", s, next, n)
			}
		}
	})
}

// TestCountPlanOfEitherCounter checks that a merge takes the counter its
// shards were counted with: queens:12 by the halves or the join counter,
// whichever this machine's builds use.
func TestCountPlanOfEitherCounter(t *testing.T) {
	p := canon.Puzzle{Kind: canon.Queens, N: 12}
	for _, halves := range []bool{true, false} {
		made := queensCountPlan(enumerate.NewQueensCounterUsing(p.N, halves))
		got := countPlanOf(p, made.layout())
		if got.layout() != made.layout() || len(got.prefixes) != len(made.prefixes) || string(got.prefixes[0]) != string(made.prefixes[0]) {
			t.Errorf("halves %v: shards made by %q, merged as %q", halves, made.layout(), got.layout())
		}
	}
	if a, b := queensCountPlan(enumerate.NewQueensCounterUsing(p.N, true)), queensCountPlan(enumerate.NewQueensCounterUsing(p.N, false)); a.layout() == b.layout() || a.prefixes[0][0] == b.prefixes[0][0] {
		t.Errorf("the two counters' layouts or unit prefixes are alike: %q, %q", a.layout(), b.layout())
	}
	if got := countPlanOf(p, catalog.Layout{Solver: "some other solcat"}); got.layout() != newCountPlan(p).layout() {
		t.Errorf("an unknown layout gives %q", got.layout())
	}
}

// TestResumeWithTheCounterThatBegan saves half the units of queens:12 and
// 13 as the counter this machine would not use counts them (a count moved
// between machines with and without AVX-512), resumes the count here, and
// expects it to go on with that counter: the saved units kept, the counts
// right.
func TestResumeWithTheCounterThatBegan(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		n                       int
		solutions               int64
		classes, orbit2, orbit4 int64
	}{
		{12, 14200, 1787, 4, 18},
		{13, 73712, 9233, 4, 32},
	} {
		t.Run(fmt.Sprintf("queens:%d", tc.n), func(t *testing.T) {
			p := canon.Puzzle{Kind: canon.Queens, N: tc.n}
			here := newCountPlan(p)
			other := queensCountPlan(enumerate.NewQueensCounterUsing(p.N, here.method != "halves counter"))
			if other.method == here.method {
				t.Fatalf("both plans use the %s", here.method)
			}
			cat, err := catalog.Create(ctx, filepath.Join(t.TempDir(), "c.db"), catfile.Holder{})
			if err != nil {
				t.Fatal(err)
			}
			defer cat.Close()
			var todo []int
			for i := 0; i < len(other.prefixes); i += 2 {
				todo = append(todo, i)
			}
			err = other.run(ctx, todo, 1, func(i int, c enumerate.ClassCounts) error {
				return cat.Work().SaveUnits(ctx, p.String(), []catalog.UnitCounts{{Unit: i, Prefix: other.prefixes[i],
					Orbit1: c.Orbits[1], Orbit2: c.Orbits[2], Orbit4: c.Orbits[4], Orbit8: c.Orbits[8], Joined: c.Joined, Nodes: c.Nodes}})
			})
			if err != nil {
				t.Fatal(err)
			}
			var notices strings.Builder
			res, err := (&Builder{Cat: cat}).Build(ctx, p, Options{CountOnly: true, Notices: &notices})
			if rec := res.Record; err != nil || rec.Solutions != tc.solutions || rec.Classes != tc.classes || rec.Orbits[2] != tc.orbit2 || rec.Orbits[4] != tc.orbit4 {
				t.Fatalf("resumed count: %+v, %v", rec, err)
			}
			want := fmt.Sprintf("%s: resuming with the %s that began it (this machine would use the %s)", p, other.method, here.method)
			if got := notices.String(); !strings.Contains(got, want) || !strings.Contains(got, fmt.Sprintf("resuming, %s of %s units already counted", canon.Thousands(int64(len(todo))), canon.Thousands(int64(len(other.prefixes))))) {
				t.Errorf("notices %q, want %q and the units kept", got, want)
			}
		})
	}
}

// TestShardDoneOnEitherCounter finds a count shard finished with the other
// machine kind's counter already done, as one finished here would be.
func TestShardDoneOnEitherCounter(t *testing.T) {
	ctx := context.Background()
	p := canon.Puzzle{Kind: canon.Queens, N: 12}
	for _, halves := range []bool{true, false} {
		plan := queensCountPlan(enumerate.NewQueensCounterUsing(p.N, halves))
		cat, err := catalog.Create(ctx, filepath.Join(t.TempDir(), "c.db"), catfile.Holder{})
		if err != nil {
			t.Fatal(err)
		}
		if err := cat.Work().SaveShard(ctx, catalog.Shard{Puzzle: p.String(), Shard: 2, Of: 3, Layout: plan.layout(), Units: 10, Done: true}); err != nil {
			t.Fatal(err)
		}
		res, err := (&Builder{Cat: cat}).Build(ctx, p, Options{CountOnly: true, Shard: Shard{2, 3}})
		cat.Close()
		if err != nil || res.Outcome != ShardDone {
			t.Errorf("%s: a finished shard is built again: %+v, %v", plan.method, res, err)
		}
	}
}
