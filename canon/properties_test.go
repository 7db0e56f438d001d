package canon

import "testing"

// eachQueens calls fn with every solution of queens:n, by plain array
// backtracking (no bit tricks to share a mistake with the code tested).
func eachQueens(n int, fn func(sol []byte)) {
	sol := make([]byte, n)
	var place func(r int)
	place = func(r int) {
		if r == n {
			fn(sol)
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
}

// toroidalBySquares and superqueenBySquares test the definitions pair of
// queens by pair of queens.
func toroidalBySquares(sol []byte) bool {
	n := len(sol)
	for a := range sol {
		for b := a + 1; b < n; b++ {
			ra, ca, rb, cb := a, int(sol[a]), b, int(sol[b])
			if ((ra-ca)-(rb-cb))%n == 0 || ((ra+ca)-(rb+cb))%n == 0 {
				return false
			}
		}
	}
	return true
}

func superqueenBySquares(sol []byte) bool {
	for a := range sol {
		for b := a + 1; b < len(sol); b++ {
			dr, dc := b-a, int(sol[b])-int(sol[a])
			if dc < 0 {
				dc = -dc
			}
			if dr == 1 && dc == 2 || dr == 2 && dc == 1 {
				return false
			}
		}
	}
	return true
}

// TestQueensBoardProperties checks, for queens:1 to 12, the toroidal and
// superqueen properties of every solution against their definitions
// tested pair by pair, that no symmetry changes them, and their counts
// (solutions, and classes by orbit size) against the published ones
// (KnownWithProperty: A051906, A051223, A051224, A352661).
func TestQueensBoardProperties(t *testing.T) {
	maxN := 12 // query's tests take queens:13, stored
	if testing.Short() {
		maxN = 10
	}
	for n := 1; n <= maxN; n++ {
		p := Puzzle{Kind: Queens, N: n}
		t.Run(p.String(), func(t *testing.T) {
			images := NewImages(p)
			var orbits [2][9]int64 // by property (toroidal, superqueen) and orbit size
			eachQueens(n, func(sol []byte) {
				props := QueensBoardProperties(sol)
				if got, want := props&Toroidal != 0, toroidalBySquares(sol); got != want {
					t.Errorf("%v: toroidal %v, by its pairs of queens %v", sol, got, want)
				}
				if got, want := props&Superqueen != 0, superqueenBySquares(sol); got != want {
					t.Errorf("%v: superqueen %v, by its pairs of queens %v", sol, got, want)
				}
				if all := p.Properties(sol); all.Board() != props || all.Stored() != 0 || all&^props != SymmetryType(QueensOrbit(sol)) {
					t.Errorf("%v: Properties %v, board properties %v, orbit %d", sol, all, props, QueensOrbit(sol))
				}
				if n <= 10 {
					images.Distinct(sol, func(s Symmetry, img []byte) error {
						if got := QueensBoardProperties(img); got != props {
							t.Errorf("%v: properties %v, its image under %v %v", sol, props, s, got)
						}
						return nil
					})
				}
				orbit := QueensOrbit(sol)
				for i, prop := range []Property{Toroidal, Superqueen} {
					if props&prop != 0 {
						orbits[i][orbit]++
					}
				}
			})
			for i, prop := range []Property{Toroidal, Superqueen} {
				var solutions, classes int64
				var byOrbit [9]int64
				for o, members := range orbits[i] {
					if members > 0 {
						byOrbit[o] = members / int64(o)
						solutions += members
						classes += members / int64(o)
					}
				}
				known, ok := KnownWithProperty(p, prop)
				if !ok {
					t.Fatalf("no published count of %s", prop)
				}
				if solutions != known.Solutions || known.Classes >= 0 && classes != known.Classes ||
					known.Orbits != [9]int64{} && byOrbit != known.Orbits {
					t.Errorf("%s: %d solutions, %d classes, orbits %v; published %d, %d, %v",
						prop, solutions, classes, byOrbit, known.Solutions, known.Classes, known.Orbits)
				}
				t.Logf("%s: %d solutions, %d classes, orbits %v", prop, solutions, classes, byOrbit)
			}
		})
	}
}

// TestKnownWithProperty checks the published sequences against what they
// must be: toroidal solutions only where N is coprime to 6 (Pólya), and a
// multiple of N (each shifts along the torus); superqueen classes by
// orbit size that add up to the solutions.
func TestKnownWithProperty(t *testing.T) {
	for n := 1; n < len(queensToroidal); n++ {
		k, _ := KnownWithProperty(Puzzle{Kind: Queens, N: n}, Toroidal)
		coprime := n%2 != 0 && n%3 != 0
		if (k.Solutions > 0) != coprime || k.Solutions%int64(n) != 0 || k.Classes != -1 {
			t.Errorf("queens:%d: %d toroidal solutions (%d classes)", n, k.Solutions, k.Classes)
		}
	}
	for n := 1; n < len(superqueensTotal); n++ {
		k, _ := KnownWithProperty(Puzzle{Kind: Queens, N: n}, Superqueen)
		if k.Orbits == [9]int64{} {
			continue
		}
		o := k.Orbits
		if o[1]+2*o[2]+4*o[4]+8*o[8] != k.Solutions || o[1]+o[2]+o[4]+o[8] != k.Classes || min(o[2], o[4], o[8]) < 0 {
			t.Errorf("queens:%d: superqueen orbits %v do not make %d solutions in %d classes", n, o, k.Solutions, k.Classes)
		}
	}
	if _, ok := KnownWithProperty(Puzzle{Kind: Queens, N: 8}, Asymmetric); ok {
		t.Error("a published count of asymmetric solutions by KnownWithProperty")
	}
}
