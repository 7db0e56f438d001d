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

// KnownWithProperty returns the published counts of the solutions of p that
// have prop, for the queens properties counted for every N (PropertyOEIS
// names the sequences): toroidal solutions, A051906 (zero unless N is
// coprime to 6, and N = 1); superqueen solutions, A051223, their classes
// A051224 and, to N = 21, the classes fixed by the quarter turn, A352661,
// which with the other two give the whole orbit split. Classes is -1 where
// no count of classes is published (toroidal).
func KnownWithProperty(p Puzzle, prop Property) (Known, bool) {
	if p.Kind != Queens || p.N < 1 {
		return Known{}, false
	}
	switch prop {
	case Toroidal:
		if p.N >= len(queensToroidal) {
			return Known{}, false
		}
		return Known{Solutions: queensToroidal[p.N], Classes: -1}, true
	case Superqueen:
		if p.N >= len(superqueensTotal) {
			return Known{}, false
		}
		k := Known{Solutions: superqueensTotal[p.N], Classes: superqueensClasses[p.N]}
		switch {
		case p.N == 1:
			k.Orbits[1] = 1
		case p.N < len(superqueensDoubly):
			// 2·o2 + 4·o4 + 8·o8 solutions in o2 + o4 + o8 classes.
			o2 := superqueensDoubly[p.N]
			o8 := (k.Solutions + 2*o2 - 4*k.Classes) / 4
			k.Orbits[2], k.Orbits[4], k.Orbits[8] = o2, k.Classes-o2-o8, o8
		}
		return k, true
	}
	return Known{}, false
}

// PropertyOEIS names the sequences of KnownWithProperty, or none.
func PropertyOEIS(prop Property) Sequences {
	switch prop {
	case Toroidal:
		return Sequences{Solutions: "A051906"}
	case Superqueen:
		return Sequences{Solutions: "A051223", Classes: "A051224"}
	}
	return Sequences{}
}

// A051906, indexed by n: toroidal solutions, published to n = 34 (a(35) is
// not known). Only n coprime to 6 have any (Pólya), and n = 1.
var queensToroidal = []int64{0,
	1, 0, 0, 0, 10, 0, 28, 0, 0, 0,
	88, 0, 4524, 0, 0, 0, 140692, 0, 820496, 0,
	0, 0, 128850048, 0, 1957725000, 0, 0, 0, 605917055356, 0,
	13404947681712, 0, 0, 0,
}

// A051223, indexed by n: superqueen solutions, published to n = 26.
var superqueensTotal = []int64{0,
	1, 0, 0, 0, 0, 0, 0, 0, 0, 4,
	44, 156, 1876, 5180, 32516, 202900, 1330622, 8924976, 64492432, 495864256,
	3977841852, 34092182276, 306819842212, 2883202816808, 28144109776812, 286022102245804,
}

// A051224, indexed by n: superqueen classes.
var superqueensClasses = []int64{0,
	1, 0, 0, 0, 0, 0, 0, 0, 0, 1,
	6, 22, 239, 653, 4089, 25411, 166463, 1115871, 8062150, 61984976,
	497236090, 4261538564, 38352532487, 360400504834, 3518014210402, 35752764285788,
}

// A352661 for n >= 2, indexed by n: superqueen classes fixed by the
// quarter turn, published to n = 21.
var superqueensDoubly = []int64{0,
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 2, 2, 0, 0, 12, 17, 0, 0, 60,
	82,
}

// PublishedEstimate is an estimate others published of a count nobody has
// made exactly: solcat's own estimates are printed beside it.
type PublishedEstimate struct {
	Classes, StdErr float64
	Source          string
}

// KnownEstimate returns the published estimate of p's classes, if there
// is one.
func KnownEstimate(p Puzzle) (PublishedEstimate, bool) {
	if p.Kind != Magic {
		return PublishedEstimate{}, false
	}
	e, ok := magicEstimates[p.N]
	return e, ok
}

var magicEstimates = map[int]PublishedEstimate{
	6: {0.17745e20, 0.00016e20, "Pinn and Wieczerkowski, Int. J. Mod. Phys. C 9 (1998) 541"},
	7: {3.7982e34, 0.0004e34, "Walter Trump's estimate, OEIS A006052"},
}
