// Package canon holds the symmetry group of the square (the dihedral group of
// order 8), its action on magic squares and N-queens placements, the
// canonical form and class identity of a solution, the properties of a
// class (pandiagonal, Dudeney's groups, symmetry types), the puzzle
// notation (magic:4, queens:1-14) and the packing of order-5 forms. It
// knows nothing of storage or of how solutions are found.
package canon

// A Symmetry is one of the 8 symmetries of the square. It is encoded in three
// bits: swap row and column first, then mirror the row index, then mirror the
// column index. Every symmetry of the square has exactly one such encoding.
type Symmetry uint8

// The eight symmetries. Rotations are clockwise.
const (
	Identity      Symmetry = 0                        // (r,c) -> (r,c)
	MirrorLR      Symmetry = flipCol                  // (r,c) -> (r,n-1-c)
	MirrorUD      Symmetry = flipRow                  // (r,c) -> (n-1-r,c)
	Rot180        Symmetry = flipRow | flipCol        // (r,c) -> (n-1-r,n-1-c)
	Transpose     Symmetry = swap                     // (r,c) -> (c,r)
	Rot90         Symmetry = swap | flipCol           // (r,c) -> (c,n-1-r)
	Rot270        Symmetry = swap | flipRow           // (r,c) -> (n-1-c,r)
	AntiTranspose Symmetry = swap | flipRow | flipCol // (r,c) -> (n-1-c,n-1-r)
)

const (
	flipCol Symmetry = 1 << iota
	flipRow
	swap
)

// All lists the symmetries in a fixed order: identity, the rotations, the reflections.
var All = [8]Symmetry{Identity, Rot90, Rot180, Rot270, MirrorLR, MirrorUD, Transpose, AntiTranspose}

var names = map[Symmetry]string{
	Identity: "identity", Rot90: "rot90", Rot180: "rot180", Rot270: "rot270",
	MirrorLR: "mirror-lr", MirrorUD: "mirror-ud", Transpose: "transpose", AntiTranspose: "anti-transpose",
}

// String returns the symmetry's name, for example "rot90" or "mirror-lr".
func (s Symmetry) String() string {
	if name, ok := names[s]; ok {
		return name
	}
	return "invalid"
}

// Map sends cell (r,c) of an n×n grid (0-based) to the cell it lands on.
func (s Symmetry) Map(n, r, c int) (int, int) {
	if s&swap != 0 {
		r, c = c, r
	}
	if s&flipRow != 0 {
		r = n - 1 - r
	}
	if s&flipCol != 0 {
		c = n - 1 - c
	}
	return r, c
}

// then returns the symmetry that applies s first and t second.
func (s Symmetry) then(t Symmetry) Symmetry { return compose[s][t] }

// Inverse returns the symmetry that undoes s.
func (s Symmetry) Inverse() Symmetry { return inverse[s] }

var compose [8][8]Symmetry
var inverse [8]Symmetry

// The group tables are derived from the action on a 3×3 grid, where every
// symmetry moves the cells differently, so they cannot disagree with Map.
func init() {
	const n = 3
	act := func(s Symmetry) [n * n]int {
		var img [n * n]int
		for r := 0; r < n; r++ {
			for c := 0; c < n; c++ {
				r2, c2 := s.Map(n, r, c)
				img[r*n+c] = r2*n + c2
			}
		}
		return img
	}
	var images [8][n * n]int
	for s := range images {
		images[s] = act(Symmetry(s))
	}
	for s := range images {
		for t := range images {
			var both [n * n]int
			for i := range both {
				both[i] = images[t][images[s][i]]
			}
			for u := range images {
				if images[u] == both {
					compose[s][t] = Symmetry(u)
				}
			}
		}
	}
	for s := range images {
		for t := range images {
			if compose[s][t] == Identity {
				inverse[s] = Symmetry(t)
			}
		}
	}
}

// CellOrbits numbers the orbits of the cells of an n×n board under the 8
// symmetries: orbitOf[r*n+c] is the orbit of cell (r, c) (0-based), in the
// order of each orbit's first cell, and size[k] the cells of orbit k (1, 4
// or 8).
func CellOrbits(n int) (orbitOf, size []int) {
	orbitOf = make([]int, n*n)
	for x := range orbitOf {
		orbitOf[x] = -1
	}
	for x := range orbitOf {
		if orbitOf[x] >= 0 {
			continue
		}
		k := len(size)
		size = append(size, 0)
		for _, s := range All {
			r, c := s.Map(n, x/n, x%n)
			if y := r*n + c; orbitOf[y] < 0 {
				orbitOf[y] = k
				size[k]++
			}
		}
	}
	return orbitOf, size
}
