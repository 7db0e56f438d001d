package catalog

import (
	"math/rand/v2"
	"testing"
)

// TestMemberNumbering numbers the members of random classes (orbits 1, 2,
// 4 and 8, the short ones in runs and alone) one by one and checks both
// directions of the numbering against it.
func TestMemberNumbering(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 50 {
		classes := int64(rng.IntN(300) + 1)
		var m memberNumbering
		var firsts []int64 // class k's first member, k from 1
		var of []int64     // member id (from 1) -> class
		next := int64(1)
		for k := int64(1); k <= classes; k++ {
			orbit := 8
			if trial > 0 && rng.IntN(4) == 0 {
				orbit = []int{1, 2, 4}[rng.IntN(3)]
			}
			if orbit != 8 {
				m.rows = append(m.rows, classOrbit{ID: k, Orbit: orbit, First: next})
			}
			firsts = append(firsts, next)
			for range orbit {
				of = append(of, k)
			}
			next += int64(orbit)
		}
		for k := int64(1); k <= classes; k++ {
			if got := m.firstMember(k); got != firsts[k-1] {
				t.Fatalf("trial %d: class %d's first member %d, want %d", trial, k, got, firsts[k-1])
			}
		}
		for id := int64(1); id < next; id++ {
			class, index := m.classOf(id)
			if class != of[id-1] || index != id-firsts[class-1] {
				t.Fatalf("trial %d: member %d in class %d at %d, want class %d at %d", trial, id, class, index, of[id-1], id-firsts[of[id-1]-1])
			}
		}
	}
}
