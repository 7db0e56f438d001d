package canon

import (
	"slices"
	"strings"
)

// A Property is a class invariant: it holds for all members of a class or
// for none, so it is computed once from the canonical form.
type Property uint32

const (
	// Pandiagonal: every broken diagonal, in both directions, sums to the
	// magic constant.
	Pandiagonal Property = 1 << iota
	// Associative: cells symmetric about the centre sum to n²+1.
	Associative
	// MostPerfect (orders divisible by 4): every 2×2 block, wrapping around
	// the edges, sums to 2(n²+1), and cells n/2 apart along a diagonal
	// (wrapping) are complementary.
	MostPerfect
	// SelfComplementary: replacing every x by n²+1-x gives a member of the
	// same class.
	SelfComplementary
	// Rot90Symmetric (queens): fixed by the quarter turn (orbit 2; queens:1's
	// one solution, fixed by all 8 symmetries, too).
	Rot90Symmetric
	// Rot180Only (queens): fixed by the half turn but not the quarter turn (orbit 4).
	Rot180Only
	// Asymmetric (queens): fixed by no symmetry but the identity (orbit 8).
	Asymmetric
	// DudeneyI (order 4) is the first of twelve bits, one per Dudeney group
	// (dudeney.go); a square is in exactly one.
	DudeneyI
)

const (
	// Toroidal (queens): no two queens share a broken diagonal, one that
	// wraps around the board's edges, so the solution holds on a torus:
	// the (r-c) mod n and the (r+c) mod n are all distinct. Pólya: there
	// are such solutions only for n coprime to 6 (and n = 1).
	Toroidal Property = DudeneyI << (12 + iota)
	// Superqueen (queens): no two queens a knight's move apart either, so
	// the queens are superqueens (amazons), which move as a queen and as a
	// knight.
	Superqueen
)

// Dudeney is the property of Dudeney group g (1-12); none for other g.
func Dudeney(g int) Property {
	if g < 1 || g > 12 {
		return 0
	}
	return DudeneyI << (g - 1)
}

// DudeneyOf returns the Dudeney group in ps, or 0.
func (ps Property) DudeneyOf() int {
	for g := 1; g <= 12; g++ {
		if ps&Dudeney(g) != 0 {
			return g
		}
	}
	return 0
}

var propertyNames = []struct {
	p    Property
	kind Kind
	name string
}{
	{Pandiagonal, Magic, "pandiagonal"},
	{Associative, Magic, "associative"},
	{MostPerfect, Magic, "most-perfect"},
	{SelfComplementary, Magic, "self-complementary"},
	{Rot90Symmetric, Queens, "rot90-symmetric"},
	{Rot180Only, Queens, "rot180-only"},
	{Asymmetric, Queens, "asymmetric"},
	{Toroidal, Queens, "toroidal"},
	{Superqueen, Queens, "superqueen"},
}

func init() {
	for g := 1; g <= 12; g++ {
		propertyNames = append(propertyNames, struct {
			p    Property
			kind Kind
			name string
		}{Dudeney(g), Magic, "dudeney-" + DudeneyNumeral(g)})
	}
}

// PropertyNames lists the properties of a kind of puzzle.
func PropertyNames(k Kind) []string {
	var out []string
	for _, pn := range propertyNames {
		if pn.kind == k {
			out = append(out, pn.name)
		}
	}
	return out
}

// ParseProperty reads a property name of a kind of puzzle.
func ParseProperty(k Kind, name string) (Property, bool) {
	for _, pn := range propertyNames {
		if pn.kind == k && pn.name == name {
			return pn.p, true
		}
	}
	return 0, false
}

// Names lists the properties in ps.
func (ps Property) Names() []string {
	out := []string{}
	for _, pn := range propertyNames {
		if ps&pn.p != 0 {
			out = append(out, pn.name)
		}
	}
	return out
}

// String joins the names with commas, or "-" for none.
func (ps Property) String() string {
	if names := ps.Names(); len(names) > 0 {
		return strings.Join(names, ",")
	}
	return "-"
}

// queensSymmetry are the queens properties: each is one orbit size.
const queensSymmetry = Rot90Symmetric | Rot180Only | Asymmetric

// The symmetry types of queens are defined by the symmetries that fix a
// solution. No solution of more than one queen is fixed by a reflection
// (OEIS A260318-A260320), so the orbit size tells them: 2 (or 1, for
// queens:1's solution, fixed by all 8) for the quarter turn, 4 for the half
// turn only, 8 for none.

// SymmetryType is the queens property that an orbit size implies.
func SymmetryType(orbit int) Property {
	switch orbit { // a switch, not a map: listings call it for every solution
	case 1, 2:
		return Rot90Symmetric
	case 4:
		return Rot180Only
	case 8:
		return Asymmetric
	}
	return 0
}

// queensBoard are the queens properties read off the queens' squares,
// which no symmetry of the square changes: a rotation or a reflection
// carries rows, columns, diagonals and broken diagonals onto rows,
// columns, diagonals and broken diagonals, and knight's moves onto
// knight's moves.
const queensBoard = Toroidal | Superqueen

// QueensProperties is every property of a queens solution of the given
// orbit size: its symmetry type and what its squares show.
func QueensProperties(sol []byte, orbit int) Property {
	return SymmetryType(orbit) | QueensBoardProperties(sol)
}

// Stored is the part of ps a catalog stores: the queens properties are
// left out, since the stored orbit size gives the symmetry types and the
// canonical form (or any member) the others (and a zero costs no bytes,
// which keeps queens:17 within its size budget).
func (ps Property) Stored() Property { return ps &^ (queensSymmetry | queensBoard) }

// Board is the part of ps read off a queens solution's squares (see
// QueensBoardProperties): the toroidal and superqueen properties.
func (ps Property) Board() Property { return ps & queensBoard }

// QueensBoardProperties are the properties a queens solution's squares
// show: Toroidal, Superqueen. sol holds the 0-based column of each row's
// queen and must be a solution (no two queens in a row, column or
// diagonal). A class has them or not as a whole (see queensBoard), so any
// member, or the canonical form, tells.
func QueensBoardProperties(sol []byte) Property {
	n := len(sol)
	var props Property
	var down, up uint64 // the broken diagonals taken: (r-c) mod n and (r+c) mod n
	toroidal := true
	for r, c := range sol {
		// (r-c) mod n and (r+c) mod n, both below 2n before the mod:
		// a subtraction rather than a division (a build tests every class).
		dr, ur := r-int(c)+n, r+int(c)
		if dr >= n {
			dr -= n
		}
		if ur >= n {
			ur -= n
		}
		d, u := uint64(1)<<dr, uint64(1)<<ur
		if down&d != 0 || up&u != 0 {
			toroidal = false
			break
		}
		down, up = down|d, up|u
	}
	if toroidal {
		props |= Toroidal
	}
	// A knight's move is one row and two columns, or two rows and one
	// column, away.
	super := true
	for r := 0; r+1 < n && super; r++ {
		if d := int(sol[r]) - int(sol[r+1]); d == 2 || d == -2 {
			super = false
		} else if r+2 < n {
			d := int(sol[r]) - int(sol[r+2])
			super = d != 1 && d != -1
		}
	}
	if super {
		props |= Superqueen
	}
	return props
}

// Orbits returns the orbit sizes a set of queens properties allows: nil if
// it requires none, an empty list if it asks for two symmetry types at once.
func (ps Property) Orbits() []int {
	switch ps & queensSymmetry {
	case 0:
		return nil
	case Rot90Symmetric:
		return []int{1, 2}
	case Rot180Only:
		return []int{4}
	case Asymmetric:
		return []int{8}
	}
	return []int{}
}

// AllowsOrbit reports whether a class of the given orbit size can have
// every queens symmetry type in ps.
func (ps Property) AllowsOrbit(orbit int) bool {
	orbits := ps.Orbits()
	return orbits == nil || slices.Contains(orbits, orbit)
}

// Properties computes the properties of a solution (any member of its class
// gives the same answer).
func (p Puzzle) Properties(sol []byte) Property {
	n := p.N
	if p.Kind == Queens {
		props := QueensBoardProperties(sol)
		switch len(p.Stabilizer(sol)) {
		case 8, 4: // 8: queens:1, fixed by everything, the quarter turn too
			props |= Rot90Symmetric
		case 2:
			props |= Rot180Only
		case 1:
			props |= Asymmetric
		}
		return props
	}
	at := func(r, c int) int { return int(sol[((r%n+n)%n)*n+(c%n+n)%n]) }
	target := n * (n*n + 1) / 2
	comp := n*n + 1
	var props Property
	pan := true
	for k := 0; k < n && pan; k++ {
		down, up := 0, 0
		for i := 0; i < n; i++ {
			down += at(i, i+k)
			up += at(i, k-i)
		}
		pan = down == target && up == target
	}
	if pan {
		props |= Pandiagonal
	}
	assoc := true
	for i := 0; i < n*n && assoc; i++ {
		assoc = int(sol[i])+int(sol[n*n-1-i]) == comp
	}
	if assoc {
		props |= Associative
	}
	if n%4 == 0 && pan {
		most := true
		for r := 0; r < n && most; r++ {
			for c := 0; c < n && most; c++ {
				most = at(r, c)+at(r, c+1)+at(r+1, c)+at(r+1, c+1) == 2*comp &&
					at(r, c)+at(r+n/2, c+n/2) == comp
			}
		}
		if most {
			props |= MostPerfect
		}
	}
	if n == 4 {
		props |= Dudeney(DudeneyGroup(sol))
	}
	complement := make([]byte, len(sol))
	for i, v := range sol {
		complement[i] = byte(comp) - v
	}
	c := NewImages(p)
	a := string(c.Canonical(sol).Canonical)
	if string(c.Canonical(complement).Canonical) == a {
		props |= SelfComplementary
	}
	return props
}
