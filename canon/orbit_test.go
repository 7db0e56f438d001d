package canon

import "testing"

// TestQueensOrbit checks QueensOrbit against the images Images.Distinct
// draws, for every solution of queens:1 to queens:9.
func TestQueensOrbit(t *testing.T) {
	for n := 1; n <= 9; n++ {
		t.Run(Puzzle{Kind: Queens, N: n}.String(), func(t *testing.T) {
			images := NewImages(Puzzle{Kind: Queens, N: n})
			orbits := map[int]int{}
			sol := make([]byte, n)
			var place func(r int)
			place = func(r int) {
				if r == n {
					want := 0
					images.Distinct(sol, func(Symmetry, []byte) error { want++; return nil })
					if got := QueensOrbit(sol); got != want {
						t.Errorf("%v: QueensOrbit %d, Distinct %d", sol, got, want)
					}
					orbits[want]++
					return
				}
			next:
				for c := 0; c < n; c++ {
					for q := 0; q < r; q++ {
						d := int(sol[q]) - c
						if d == 0 || d == r-q || d == q-r {
							continue next
						}
					}
					sol[r] = byte(c)
					place(r + 1)
				}
			}
			place(0)
			t.Logf("orbits: %v", orbits)
			if n == 8 && (orbits[8] != 88 || orbits[4] != 4 || orbits[2] != 0) {
				t.Errorf("queens:8 orbits %v, want 88 of 8 and 4 of 4", orbits)
			}
		})
	}
}
