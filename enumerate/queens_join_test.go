package enumerate

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

func TestTranspose64(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10 {
		var a, orig [64]uint64
		for i := range a {
			a[i] = rng.Uint64()
			orig[i] = a[i]
		}
		transpose64(&a)
		for i := range 64 {
			for p := range 64 {
				if orig[i]>>p&1 != a[p]>>i&1 {
					t.Fatalf("bit %d of row %d did not become bit %d of row %d", p, i, i, p)
				}
			}
		}
	}
}

// TestJoinUnitsStandForEveryJoin checks the symmetry weighting: the joins
// the units list, each counted as many times as it has distinct images,
// are all the joins there are (every set of n/2 columns, with every middle
// column outside it when n is odd).
func TestJoinUnitsStandForEveryJoin(t *testing.T) {
	for n := 4; n <= 17; n++ {
		var weighted int64
		j := newJoiner(n, nil)
		for _, u := range QueensJoinUnits(n) {
			for _, k := range u.Keys {
				syms, smallest := j.images(k.M, k.D)
				if !smallest {
					t.Fatalf("queens:%d: unit lists %v, which is not the smallest of its images", n, k)
				}
				weighted += int64(len(syms))
			}
		}
		perSet := int64(1) // even n: one join per set of n/2 columns
		if n%2 == 1 {
			perSet = int64(n - n/2) // odd n: any other column may hold the middle queen
		}
		var want int64
		for d := uint32(0); d < 1<<n; d++ {
			if bits.OnesCount32(d) == n/2 {
				want += perSet
			}
		}
		if weighted != want {
			t.Errorf("queens:%d: the units stand for %d joins, there are %d", n, weighted, want)
		}
	}
}
