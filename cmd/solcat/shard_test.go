package main

import (
	"errors"
	"testing"
)

func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"1/4", "4/4", "0/4", "5/4", "1/1", "a/b", "1/", "/4", "1/4/2", "-1/4", "1/100001", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		spec, err := parseShard(s)
		if err != nil {
			var usage usageError
			if !errors.As(err, &usage) {
				t.Fatalf("%q: error %v is not a usage error", s, err)
			}
			return
		}
		if s == "" {
			if spec.of != 0 || !spec.has(7) {
				t.Fatalf("no --shard: %+v", spec)
			}
			return
		}
		if spec.i < 1 || spec.i > spec.of {
			t.Fatalf("%q: shard %d of %d", s, spec.i, spec.of)
		}
		// Every unit is in exactly one shard of the split.
		for unit := 0; unit < 3*spec.of && unit < 1000; unit++ {
			in := 0
			for i := 1; i <= spec.of && i <= 1000; i++ {
				if (shardSpec{i, spec.of}).has(unit) {
					in++
				}
			}
			if in != 1 && spec.of <= 1000 {
				t.Fatalf("%q: unit %d is in %d shards", s, unit, in)
			}
		}
		// The first-row ranges of a stored split tile the columns.
		if n := 17; spec.of <= n {
			next := 0
			for i := 1; i <= spec.of; i++ {
				r := (shardSpec{i, spec.of}).firstRows(n)
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
