package enumerate

import (
	"bytes"
	"context"
	"testing"
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
