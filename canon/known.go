package canon

import "fmt"

// Known holds the published counts for one puzzle: the facts every count
// solcat makes is checked against.
type Known struct {
	Solutions int64
	Classes   int64
	// Classes by orbit size (index 1, 2, 4, 8); zero where not recorded here.
	// For queens, orbit 2 means 90° rotational symmetry and orbit 4 means
	// 180° symmetry only; no other stabilizer occurs for n > 1.
	Orbits [9]int64
}

// KnownCounts returns the published counts for p, if there are any:
// OEIS A006052 (magic squares) and A000170 / A002562 (queens, all and
// essentially different), and for queens the split of classes by symmetry:
// A260318 (doubly symmetric, orbit 2), A260320 (asymmetric, orbit 8); the
// singly symmetric classes (orbit 4, A260319) are the rest.
func KnownCounts(p Puzzle) (Known, bool) {
	switch p.Kind {
	case Magic:
		k, ok := knownMagic[p.N]
		return k, ok
	case Queens:
		if p.N >= len(queensTotal) {
			return Known{}, false
		}
		k := Known{Solutions: queensTotal[p.N], Classes: queensClasses[p.N]}
		if p.N == 1 {
			k.Orbits[1] = 1
			return k, true
		}
		if p.N < len(queensAsymmetric) {
			k.Orbits[2] = queensDoubly[p.N]
			k.Orbits[8] = queensAsymmetric[p.N]
			k.Orbits[4] = k.Classes - k.Orbits[2] - k.Orbits[8]
		}
		return k, true
	}
	return Known{}, false
}

// Mismatch describes how counts differ from the published ones, or returns
// "" if they agree. The orbit split is compared where it is recorded here.
func (k Known) Mismatch(solutions, classes int64, orbits [9]int64) string {
	if solutions == k.Solutions && classes == k.Classes && (k.Orbits == [9]int64{} || orbits == k.Orbits) {
		return ""
	}
	return fmt.Sprintf("%d solutions, %d classes, orbits %d/%d/%d/%d differ from the published %d, %d, %d/%d/%d/%d",
		solutions, classes, orbits[1], orbits[2], orbits[4], orbits[8],
		k.Solutions, k.Classes, k.Orbits[1], k.Orbits[2], k.Orbits[4], k.Orbits[8])
}

var knownMagic = map[int]Known{
	1: {Solutions: 1, Classes: 1, Orbits: [9]int64{1: 1}},
	2: {},
	3: {Solutions: 8, Classes: 1, Orbits: [9]int64{8: 1}},
	4: {Solutions: 7040, Classes: 880, Orbits: [9]int64{8: 880}},
	// No order-5 square is fixed by a symmetry: every class has 8 members.
	5: {Solutions: 2202441792, Classes: 275305224, Orbits: [9]int64{8: 275305224}},
}

// A000170, indexed by n.
var queensTotal = []int64{0,
	1, 0, 0, 2, 10, 4, 40, 92, 352, 724,
	2680, 14200, 73712, 365596, 2279184, 14772512, 95815104, 666090624, 4968057848, 39029188884,
	314666222712, 2691008701644, 24233937684440, 227514171973736, 2207893435808352, 22317699616364044, 234907967154122528,
}

// A002562, indexed by n.
var queensClasses = []int64{0,
	1, 0, 0, 1, 2, 1, 6, 12, 46, 92,
	341, 1787, 9233, 45752, 285053, 1846955, 11977939, 83263591, 621012754, 4878666808,
	39333324973, 336376244042, 3029242658210, 28439272956934, 275986683743434, 2789712466510289, 29363495934315694,
}

// A260318 for n >= 2, indexed by n: classes fixed by the 90° rotation.
var queensDoubly = []int64{0,
	0, 0, 0, 1, 1, 0, 0, 0, 0, 0,
	0, 4, 4, 0, 0, 32, 64, 0, 0, 240,
	352, 0, 0, 1664, 1632, 0, 0,
}

// A260320, indexed by n: classes with no symmetry.
var queensAsymmetric = []int64{0,
	0, 0, 0, 0, 1, 0, 4, 11, 42, 89,
	329, 1765, 9197, 45647, 284743, 1846189, 11975869, 83259065, 621001708, 4878630533,
	39333230881, 336375931369, 3029241762900, 28439270037332, 275986675209470, 2789712437580722,
}

// Published counts of order-5 classes with properties (under the 8
// symmetries): associative, associative and pandiagonal (ultramagic), and
// pandiagonal.
const (
	Magic5AssociativeClasses = 48544
	Magic5UltramagicClasses  = 16
	Magic5PandiagonalClasses = 3600
)

// Sequences are the OEIS entries a kind's published counts come from.
type Sequences struct {
	Solutions string // every solution; "" where OEIS counts classes only
	Classes   string // solutions up to the 8 symmetries of the square
}

// OEIS names the sequences of KnownCounts: A000170 and A002562 for queens;
// A006052 counts the magic squares up to symmetry, and every class of
// order 2 or more has 8 members, so the solutions are 8 times it.
func OEIS(k Kind) Sequences {
	if k == Magic {
		return Sequences{Classes: "A006052"}
	}
	return Sequences{Solutions: "A000170", Classes: "A002562"}
}
