package enumerate

import (
	"bytes"
	"context"
	"testing"

	"solcat/canon"
)

// TestQueensClassesResume: handed the first classes an earlier run found,
// the search gives the same classes and counts as a whole one, whatever
// their number.
func TestQueensClassesResume(t *testing.T) {
	ctx := context.Background()
	const n = 11
	var forms, orbits []byte
	whole, err := QueensClasses(ctx, n, Options{Workers: 2}, func(form []byte, orbit int) error {
		forms, orbits = append(forms, form...), append(orbits, byte(orbit))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{1, 17, 100, len(orbits) / 2, len(orbits) - 1, len(orbits)} {
		var again []byte
		got, err := QueensClasses(ctx, n, Options{Workers: 2, Resume: &Resume{Forms: forms[:k*n], Orbits: orbits[:k], AllClasses: k == len(orbits)}},
			func(form []byte, orbit int) error {
				again = append(again, form...)
				return nil
			})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(again, forms) || got.Orbits != whole.Orbits {
			t.Errorf("resumed after %d classes: %d classes, orbits %v; want %d, %v", k, len(again)/n, got.Orbits, len(orbits), whole.Orbits)
		}
	}
}

// TestQueensCatalogResumeSolutions: handed every class and the number and
// last of the solutions an earlier run wrote, the build passes over whole
// buckets of them and streams the rest as a whole one does, whether or not
// it knows the last (then it expands every bucket).
func TestQueensCatalogResumeSolutions(t *testing.T) {
	ctx := context.Background()
	const n = 10
	var forms, orbits, sols []byte
	_, err := QueensCatalog(ctx, n, Options{Workers: 2}, func(_ int64, form []byte, orbit int) error {
		forms, orbits = append(forms, form...), append(orbits, byte(orbit))
		return nil
	}, func(sol []byte, _ int64, _ canon.Symmetry) error {
		sols = append(sols, sol...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	total := len(sols) / n
	for _, k := range []int{1, 2, 60, 61, total / 2, total - 1, total} {
		for _, known := range []bool{true, false} {
			r := &Resume{Forms: forms, Orbits: orbits, AllClasses: true, Solutions: int64(k)}
			if known {
				r.Last = sols[(k-1)*n : k*n]
			}
			var skipped int64
			r.Skip = func(m int64) error { skipped = m; return nil }
			var again []byte
			_, err := QueensCatalog(ctx, n, Options{Workers: 2, Resume: r}, func(int64, []byte, int) error { return nil },
				func(sol []byte, _ int64, _ canon.Symmetry) error {
					again = append(again, sol...)
					return nil
				})
			if err != nil || skipped > int64(k) || !bytes.Equal(again, sols[skipped*n:]) {
				t.Errorf("resumed after %d of %d solutions (last known %v): %d passed over, %d streamed, %v", k, total, known, skipped, len(again)/n, err)
			}
		}
	}
}

// QueensCatalog (for the tests) produces queens:n for storage without canonicalizing each
// solution from scratch: it finds the classes by the symmetry-reduced search
// (their canonical forms come in lexicographic order, so the class ID is the
// running count), then expands each class into its members, sorts the
// members and streams them in lexicographic order with their class and the
// symmetry that carries the canonical form onto them (the first in
// canon.All that does). onClass sees every class before onSolution sees any
// solution. Nothing depends on the worker count.
func QueensCatalog(ctx context.Context, n int, opt Options,
	onClass func(id int64, canonical []byte, orbit int) error,
	onSolution func(sol []byte, classID int64, from canon.Symmetry) error) (ClassCounts, error) {
	return QueensCatalogPart(ctx, n, opt, FirstRows{0, n}, onClass, nil, nil, onSolution)
}
