package enumerate

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"solcat/canon"
)

// TestTorusCutOrbits checks the cut by the torus's maps against the
// orbits themselves: for every toroidal solution of small boards it maps
// the solution by each of the 2·n²·φ(n) maps, and checks that weight
// gives the orbit's least member its orbit's size (the maps over those
// that fix it) and every other member
// that begins 0, k (k its least slope) nothing. queens:13 (4,524
// solutions, a second or two) with SOLCAT_LONG=1.
func TestTorusCutOrbits(t *testing.T) {
	sizes := []int{5, 7, 11}
	if longTests() {
		sizes = append(sizes, 13)
	}
	for _, n := range sizes {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			cut := newTorusCut(n)
			sols := toroidalSolutions(n)
			var total int64
			for _, p := range sols {
				fixing := int64(0) // the maps that take p to itself
				least := []int8(nil)
				q := make([]int8, n)
				for _, u := range cut.units {
					for _, e := range []int{1, n - 1} {
						for a := range n {
							for b := range n {
								for r, c := range p {
									q[(u*r+a)%n] = int8((e*u*int(c) + b) % n)
								}
								if slices.Equal(q, p) {
									fixing++
								}
								if least == nil || slices.Compare(q, least) < 0 {
									least = slices.Clone(q)
								}
							}
						}
					}
				}
				k := leastSlope(cut, p)
				if p[0] != 0 || int(p[1]) != k {
					continue
				}
				w, orbit := cut.weight(p, k), cut.group/fixing
				switch {
				case slices.Equal(p, least) && w != orbit:
					t.Errorf("%v is its orbit's least member: weight %d, orbit of %d", p, w, orbit)
				case !slices.Equal(p, least) && w != 0:
					t.Errorf("%v is not its orbit's least member (%v): weight %d", p, least, w)
				}
				total += w
			}
			if total != int64(len(sols)) {
				t.Errorf("the weights add up to %d, for %d solutions", total, len(sols))
			}
		})
	}
}

// leastSlope is the least |slope| of two queens of p whose rows differ by
// a d prime to n.
func leastSlope(cut *torusCut, p []int8) int {
	n, least := cut.n, cut.n
	for i := range n {
		for _, d := range cut.units {
			s := cut.slope[d][int(p[(i+d)%n])-int(p[i])+n]
			least = min(least, s, n-s)
		}
	}
	return least
}

// toroidalSolutions lists the toroidal solutions of queens:n by the plain
// search.
func toroidalSolutions(n int) [][]int8 {
	var out [][]int8
	plainBoardEach(canon.Toroidal, n, nil, func(sol []byte) {
		p := make([]int8, n)
		for r, c := range sol {
			p[r] = int8(c)
		}
		out = append(out, p)
	})
	return out
}

// TestTorusFilter counts toroidal solutions under random constraints (a
// few squares with a queen or empty, and patterns of several rows) by the
// orbits of the torus's maps, their members tested, and compares with the
// plain search.
func TestTorusFilter(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 9))
	for _, n := range []int{5, 7, 11, 13} {
		for i := range 8 {
			c := randomConstraint(rng, n)
			if i%4 == 3 { // a pattern: the first rows' queens of a solution
				sols := toroidalSolutions(n)
				p := sols[rng.IntN(len(sols))]
				c = NewQueensConstraint(n)
				for r := range 1 + rng.IntN(3) {
					c.Queen(r, int(p[r]))
				}
			}
			t.Run(fmt.Sprintf("%d/%d", n, i), func(t *testing.T) {
				allowed := make([]uint64, n)
				for r, a := range c.Allowed {
					allowed[r] = uint64(a)
				}
				q := newTorusFilter(n, allowed)
				var got int64
				err := q.Count(context.Background(), seq(len(q.units)), 1+i%2, func(_ int, cc ClassCounts) error {
					got += cc.Joined
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if want, _ := plainBoard(canon.Toroidal, n, &c); got != want {
					t.Errorf("under %x: %d, the plain search %d", c.Allowed, got, want)
				}
			})
		}
	}
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
