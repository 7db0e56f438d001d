package builder

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"solcat/canon"
)

// TestSpillSortsAndResumes: keys come back sorted bucket by bucket; keys
// added after the last checkpoint are dropped when the spill is reopened,
// as after a crash, and a layout change starts over.
func TestSpillSortsAndResumes(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	key := func() canon.Packed25 { return canon.Packed25{Hi: rng.Uint64() &^ 15, Lo: rng.Uint64() &^ 7} }
	var all []canon.Packed25
	s, err := OpenSpill(dir, "v1")
	if err != nil {
		t.Fatal(err)
	}
	for unit := 1; unit <= 3; unit++ {
		keys := make([]canon.Packed25, 1000)
		for i := range keys {
			keys[i] = key()
		}
		all = append(all, keys...)
		if err := s.Add(keys); err != nil {
			t.Fatal(err)
		}
		if err := s.Checkpoint(unit, map[string]int{"unit": unit}); err != nil {
			t.Fatal(err)
		}
	}
	// A unit in flight when the process dies.
	lost := []canon.Packed25{key(), key(), key()}
	if err := s.Add(lost); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenSpill(dir, "v1"); err == nil || !strings.Contains(err.Error(), "another build") {
		t.Fatalf("a second spill on the same folder: %v", err)
	}
	s.Close() // flushes the lost keys to the files, as a crash after a write could
	s, err = OpenSpill(dir, "v1")
	if err != nil {
		t.Fatal(err)
	}
	if s.UnitsDone() != 3 || string(s.Progress()) != `{"unit":3}` {
		t.Fatalf("resumed at unit %d with %s", s.UnitsDone(), s.Progress())
	}
	var got []canon.Packed25
	for _, b := range s.Buckets() {
		keys, err := s.Sorted(b)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, keys...)
	}
	slices.SortFunc(all, func(a, b canon.Packed25) int {
		if a.Less(b) {
			return -1
		}
		if b.Less(a) {
			return 1
		}
		return 0
	})
	if !slices.Equal(got, all) {
		t.Fatalf("%d keys back, want the %d added before the checkpoint, in order", len(got), len(all))
	}
	s.Close()
	if s, err = OpenSpill(dir, "v2"); err != nil || s.UnitsDone() != 0 || len(s.Buckets()) != 0 {
		t.Fatalf("another layout: units %d, buckets %d, %v", s.UnitsDone(), len(s.Buckets()), err)
	}
	if err := s.Remove(); err != nil {
		t.Fatal(err)
	}
}
