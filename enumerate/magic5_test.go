package enumerate

import (
	"context"
	"testing"

	"solcat/canon"
)

// TestMagic5LineSets: 1,394 sets of five values from 1..25 sum to 65.
func TestMagic5LineSets(t *testing.T) {
	n := 0
	var pick func(from, left, sum int)
	pick = func(from, left, sum int) {
		if left == 0 {
			if sum == 65 {
				n++
			}
			return
		}
		for v := from; v <= 25 && sum+v <= 65; v++ {
			pick(v+1, left-1, sum+v)
		}
	}
	pick(1, 5, 0)
	if n != 1394 {
		t.Errorf("%d line sets, want 1394", n)
	}
	// The units' diagonal sets are these lines through the centre.
	lines := 0
	for c := 1; c <= 25; c++ {
		lines += len(magic5Sets(c))
	}
	if lines != 1394*5 {
		t.Errorf("%d (centre, diagonal set) pairs, want 5 per line: %d", lines, 1394*5)
	}
}

// referenceComplete counts the completions of a square whose diagonals are
// set by plain loops over the values with forced cells (the method of the
// baseline counter, written independently of the frames): rows 0 and 4,
// then the middle of column 2, row 2, and row 1 with column 0 forcing row 3.
func referenceComplete(a *[25]int, used uint32, emit func(*[25]int)) int64 {
	const s = 65
	free := func(v int, u uint32) bool { return v >= 1 && v <= 25 && u>>v&1 == 0 }
	var n int64
	for a[1] = 1; a[1] <= 25; a[1]++ {
		if !free(a[1], used) {
			continue
		}
		u1 := used | 1<<a[1]
		for a[2] = 1; a[2] <= 25; a[2]++ {
			a[3] = s - a[0] - a[1] - a[2] - a[4]
			if !free(a[2], u1) || !free(a[3], u1|1<<a[2]) {
				continue
			}
			u2 := u1 | 1<<a[2] | 1<<a[3]
			for a[21] = 1; a[21] <= 25; a[21]++ {
				a[11] = s - a[1] - a[6] - a[16] - a[21]
				if !free(a[21], u2) || !free(a[11], u2|1<<a[21]) {
					continue
				}
				u3 := u2 | 1<<a[21] | 1<<a[11]
				for a[22] = 1; a[22] <= 25; a[22]++ {
					a[23] = s - a[20] - a[21] - a[22] - a[24]
					if !free(a[22], u3) || !free(a[23], u3|1<<a[22]) {
						continue
					}
					u4 := u3 | 1<<a[22] | 1<<a[23]
					a[13] = s - a[3] - a[8] - a[18] - a[23]
					if !free(a[13], u4) {
						continue
					}
					u4 |= 1 << a[13]
					for a[7] = 1; a[7] <= 25; a[7]++ {
						a[17] = s - a[2] - a[7] - a[12] - a[22]
						if !free(a[7], u4) || !free(a[17], u4|1<<a[7]) {
							continue
						}
						u5 := u4 | 1<<a[7] | 1<<a[17]
						for a[10] = 1; a[10] <= 25; a[10]++ {
							a[14] = s - a[10] - a[11] - a[12] - a[13]
							if !free(a[10], u5) || !free(a[14], u5|1<<a[10]) {
								continue
							}
							u6 := u5 | 1<<a[10] | 1<<a[14]
							for a[5] = 1; a[5] <= 25; a[5]++ {
								a[9] = s - a[5] - a[6] - a[7] - a[8]
								a[15] = s - a[0] - a[5] - a[10] - a[20]
								a[19] = s - a[15] - a[16] - a[17] - a[18]
								if !free(a[5], u6) || !free(a[9], u6|1<<a[5]) || !free(a[15], u6|1<<a[5]|1<<a[9]) ||
									!free(a[19], u6|1<<a[5]|1<<a[9]|1<<a[15]) || a[4]+a[9]+a[14]+a[19]+a[24] != s {
									continue
								}
								n++
								if emit != nil {
									emit(a)
								}
							}
						}
					}
				}
			}
		}
	}
	return n
}

// referenceUnit counts a unit with referenceComplete over the same ordered
// diagonals.
func referenceUnit(u Magic5Unit, emit func(*[25]int)) int64 {
	var n int64
	var a [25]int
	c := u.Centre
	for _, anti := range magic5Sets(c) {
		used := uint32(1) << c
		for _, v := range u.Diag {
			used |= 1 << v
		}
		clash := anti[0] < u.Diag[0]
		for _, v := range anti {
			clash = clash || used>>v&1 == 1
		}
		if clash {
			continue
		}
		for _, v := range anti {
			used |= 1 << v
		}
		for _, pm := range [][3]int{{1, 2, 3}, {1, 3, 2}, {2, 1, 3}, {2, 3, 1}, {3, 1, 2}, {3, 2, 1}} {
			a[0], a[6], a[18], a[24], a[12] = int(u.Diag[0]), int(u.Diag[pm[0]]), int(u.Diag[pm[1]]), int(u.Diag[pm[2]]), c
			if a[6] > a[18] {
				continue
			}
			for _, pa := range antiPerms {
				a[4], a[8], a[16], a[20] = int(anti[pa[0]]), int(anti[pa[1]]), int(anti[pa[2]]), int(anti[pa[3]])
				if a[4] > a[20] {
					continue
				}
				n += referenceComplete(&a, used, emit)
			}
		}
	}
	return n
}

func magic5Key(sq []byte) string { return string(sq) }

// TestMagic5AgainstReference compares the frame count with the reference
// loops on a sample of units, square by square: every 776th of the 3,636
// and the last (6 units, centres 1, 4, 6, 9, 12 and 13), every 97th with
// SOLCAT_LONG=1 (38 units, three of each centre but 2), two with -short.
func TestMagic5AgainstReference(t *testing.T) {
	units := Magic5Units()
	step := 776
	if longTests() {
		step = 97
	}
	var sample []Magic5Unit
	for i := 0; i < len(units); i += step {
		sample = append(sample, units[i])
	}
	if !longTests() {
		sample = append(sample, units[len(units)-1]) // a centre-13 unit
	}
	if testing.Short() {
		sample = sample[:2]
	}
	p := canon.Puzzle{Kind: canon.Magic, N: 5}
	for _, u := range sample {
		found := map[string]bool{}
		got := magic5Emit(u, func(sq *[25]byte) {
			if err := p.Check(sq[:]); err != nil {
				t.Fatalf("unit %v: not a magic square %v: %v", u, sq, err)
			}
			found[magic5Key(sq[:])] = true
		})
		if int64(len(found)) != got.Basic {
			t.Errorf("unit %v: %d squares emitted, %d distinct", u, got.Basic, len(found))
		}
		if fast := countMagic5Unit(u); fast != got {
			t.Errorf("unit %v: counting %+v, emitting %+v", u, fast, got)
		}
		want := referenceUnit(u, func(a *[25]int) {
			var sq [25]byte
			for k, v := range a {
				sq[k] = byte(v)
			}
			if !found[magic5Key(sq[:])] {
				t.Fatalf("unit %v: the reference finds %v, the frames do not", u, sq)
			}
		})
		if want != got.Basic {
			t.Errorf("unit %v: frames %d, reference %d", u, got.Basic, want)
		}
	}
}

// m5Transform permutes rows and columns alike: the M-transformations.
func m5Transform(sq []byte, perm [5]int) []byte {
	out := make([]byte, 25)
	for r := 0; r < 5; r++ {
		for c := 0; c < 5; c++ {
			out[r*5+c] = sq[perm[r]*5+perm[c]]
		}
	}
	return out
}

// basicOrder holds for the one square of a 32-element class that is counted.
func basicOrder(sq []byte) bool {
	diag := []byte{sq[4], sq[6], sq[8], sq[16], sq[18], sq[20], sq[24]}
	for _, v := range diag {
		if v < sq[0] {
			return false
		}
	}
	return sq[6] < sq[18] && sq[4] < sq[20]
}

// TestMagic5Group32 checks the 32-element group on basic squares: every
// image is magic, the 32 are distinct, they fall into 4 classes of 8 under
// the symmetries of the square, and exactly one of them is basic.
func TestMagic5Group32(t *testing.T) {
	p := canon.Puzzle{Kind: canon.Magic, N: 5}
	canonicalizer := canon.NewImages(p)
	// Swap rows and columns 1 and 5; swap rows and columns 1, 2 and 4, 5.
	ms := [][5]int{{0, 1, 2, 3, 4}, {4, 1, 2, 3, 0}, {1, 0, 2, 4, 3}}
	units := Magic5Units()
	checked := 0
	for _, u := range []Magic5Unit{units[0], units[len(units)/2], units[len(units)-1]} {
		magic5Emit(u, func(sq *[25]byte) {
			if checked%7 != 0 { // a sample keeps the test short
				checked++
				return
			}
			checked++
			// The closure of the square under the symmetries of the square and
			// the two M-transformations.
			images := map[string]bool{string(sq[:]): true}
			queue := [][]byte{append([]byte(nil), sq[:]...)}
			for len(queue) > 0 {
				cur := queue[0]
				queue = queue[1:]
				next := [][]byte{m5Transform(cur, ms[1]), m5Transform(cur, ms[2])}
				for _, s := range canon.All {
					img := make([]byte, 25)
					p.Apply(s, img, cur)
					next = append(next, img)
				}
				for _, img := range next {
					if !images[string(img)] {
						if err := p.Check(img); err != nil {
							t.Fatalf("image %v of %v: %v", img, sq, err)
						}
						images[string(img)] = true
						queue = append(queue, img)
					}
				}
			}
			classes := map[string]bool{}
			basic := 0
			for img := range images {
				classes[string(canonicalizer.Canonical([]byte(img)).Canonical)] = true
				if basicOrder([]byte(img)) {
					basic++
				}
			}
			if len(images) != 32 || len(classes) != 4 || basic != 1 {
				t.Fatalf("%v: %d images, %d classes, %d basic; want 32, 4, 1", sq, len(images), len(classes), basic)
			}
		})
	}
	if checked == 0 {
		t.Fatal("no squares emitted")
	}
}

// TestMagic5Centre1: 4,365,792 classes have centre 1 (1,091,448 basic
// squares). With SOLCAT_LONG=1 only (it counts all of centre 1, seconds on
// every core); TestMagic5AgainstReference checks the count of sampled
// units, centre 1's among them, against the reference loops.
func TestMagic5Centre1(t *testing.T) {
	if !longTests() {
		t.Skip("long: counts all of centre 1; set SOLCAT_LONG=1")
	}
	units := Magic5Units()
	var todo []int
	for i, u := range units {
		if u.Centre == 1 {
			todo = append(todo, i)
		}
	}
	var total Magic5Count
	err := CountMagic5Units(context.Background(), units, todo, 0, func(_ int, c Magic5Count) error {
		total.Basic += c.Basic
		total.Configs += c.Configs
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if total.Basic*4 != 4365792 {
		t.Errorf("centre 1: %d basic squares, %d classes; want 4,365,792 classes", total.Basic, total.Basic*4)
	}
}

// TestMagic5Associative: 48,544 classes of associative squares, 16 of them
// also pandiagonal (ultramagic), as published.
func TestMagic5Associative(t *testing.T) {
	p := canon.Puzzle{Kind: canon.Magic, N: 5}
	var ultra int
	basic := Magic5Associative(func(sq *[25]byte) {
		classes := Magic5Classes(sq[:])
		if len(classes) != 4 {
			t.Fatalf("%v: %d classes, want 4", sq, len(classes))
		}
		for _, c := range classes {
			props := p.Properties(c)
			if props&canon.Associative == 0 {
				t.Fatalf("%v is not associative", c)
			}
			if props&canon.Pandiagonal != 0 {
				ultra++
			}
		}
	})
	if basic*4 != 48544 || ultra != 16 {
		t.Errorf("%d associative classes, %d ultramagic; want 48,544 and 16", basic*4, ultra)
	}
}

// TestMagic5Pandiagonal: 3,600 classes of pandiagonal order-5 squares, as
// published (28,800 squares). With SOLCAT_LONG=1 only (it searches all of
// centre 13); TestMagic5PandiagonalUnits checks its test of each square.
func TestMagic5Pandiagonal(t *testing.T) {
	if !longTests() {
		t.Skip("long: searches all of centre 13; set SOLCAT_LONG=1")
	}
	if len(magic5MImages) != 8 {
		t.Fatalf("%d M-images, want 8", len(magic5MImages))
	}
	classes, err := CountMagic5Pandiagonal(context.Background(), 0)
	if err != nil || classes != 3600 {
		t.Errorf("%d pandiagonal classes (%v), want 3,600", classes, err)
	}
}

// TestMagic5PandiagonalUnits: on centre-13 units that hold pandiagonal
// squares (24, 16 and 8 of their M-images) and on two that hold none, the
// test CountMagic5Pandiagonal makes of each M-image of each basic square is
// the general definition of the property (every broken diagonal sums to 65).
func TestMagic5PandiagonalUnits(t *testing.T) {
	p := canon.Puzzle{Kind: canon.Magic, N: 5}
	want := map[[4]byte]int{{1, 7, 19, 25}: 24, {2, 6, 19, 25}: 16, {4, 6, 17, 25}: 8}
	var sample []Magic5Unit
	for _, u := range Magic5Units() {
		if _, ok := want[u.Diag]; ok && u.Centre == 13 {
			sample = append(sample, u)
		}
	}
	units := Magic5Units()
	sample = append(sample, units[len(units)-1], units[len(units)-150])
	if len(sample) != 5 || sample[4].Centre != 13 {
		t.Fatalf("sample %v", sample)
	}
	img := make([]byte, 25)
	for _, u := range sample {
		found := 0
		magic5Emit(u, func(sq *[25]byte) {
			for k, perm := range magic5MImages {
				for r := range 5 {
					for c := range 5 {
						img[r*5+c] = sq[perm[r]*5+perm[c]]
					}
				}
				general := p.Properties(img)&canon.Pandiagonal != 0
				if fast := pandiagonal5(sq, &magic5MImages[k]); fast != general {
					t.Fatalf("unit %v, %v under M-image %v: pandiagonal %v, by the definition %v", u, sq, perm, fast, general)
				}
				if general {
					found++
				}
			}
		})
		if found != want[u.Diag] {
			t.Errorf("unit %v: %d pandiagonal M-images, want %d", u, found, want[u.Diag])
		}
	}
}

// TestMagic5ClassForms: the fast class forms of sampled units are the
// canonical forms the general canonicalizer gives for the classes that
// Magic5Classes finds (and their complements), each class once.
func TestMagic5ClassForms(t *testing.T) {
	p := canon.Puzzle{Kind: canon.Magic, N: 5}
	cz := canon.NewImages(p)
	units := Magic5Units()
	step := 802 // 6 units with the last; 11 with SOLCAT_LONG=1
	switch {
	case longTests():
		step = 401
	case testing.Short():
		step = 1801 // the race detector makes this ten times slower
	}
	var todo []int
	for i := 0; i < len(units); i += step {
		todo = append(todo, i)
	}
	todo = append(todo, len(units)-1) // a centre-13 unit: no complements
	err := Magic5ClassForms(context.Background(), units, todo, 2, func(i int, f Magic5Forms) error {
		u := units[i]
		want := map[canon.Packed25]bool{}
		magic5Emit(u, func(sq *[25]byte) {
			squares := Magic5Classes(sq[:])
			if u.Centre != 13 {
				var comp [25]byte
				for k, v := range sq {
					comp[k] = 26 - v
				}
				squares = append(squares, Magic5Classes(comp[:])...)
			}
			for _, s := range squares {
				var form [25]byte
				copy(form[:], cz.Canonical(s).Canonical)
				want[canon.Pack25(&form)] = true
			}
		})
		per := int64(8)
		if u.Centre == 13 {
			per = 4
		}
		if int64(len(f.Forms)) != per*f.Basic || len(want) != len(f.Forms) {
			t.Fatalf("unit %d: %d forms from %d basic squares, %d distinct classes expected", i, len(f.Forms), f.Basic, len(want))
		}
		for _, form := range f.Forms {
			if !want[form] {
				var cells [25]byte
				canon.Unpack25(form, &cells)
				t.Fatalf("unit %d: %v is not a canonical form of its classes", i, cells)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestMagic5FormProperties: canon's fast properties of order-5 classes are the
// general ones, on every class of sampled units and on the associative ones
// (which are all self-complementary, and include the pandiagonal ultramagic
// squares).
func TestMagic5FormProperties(t *testing.T) {
	p := canon.Puzzle{Kind: canon.Magic, N: 5}
	cz := canon.NewImages(p)
	check := func(sq []byte) canon.Property {
		var form [25]byte
		copy(form[:], cz.Canonical(sq).Canonical)
		got, want := canon.Magic5Properties(&form), p.Properties(form[:])
		if got != want {
			t.Fatalf("%v: properties %v, want %v", form, got, want)
		}
		return got
	}
	seen := map[canon.Property]int{}
	Magic5Associative(func(sq *[25]byte) {
		for _, c := range Magic5Classes(sq[:]) {
			seen[check(c)]++
		}
	})
	units := Magic5Units()
	step := 802 // 5 units, centres 13 to 2; every 151st with SOLCAT_LONG=1
	switch {
	case longTests():
		step = 151
	case testing.Short():
		step = 1201
	}
	for i := len(units) - 1; i >= 0; i -= step {
		magic5Emit(units[i], func(sq *[25]byte) {
			for _, c := range Magic5Classes(sq[:]) {
				seen[check(c)]++
			}
		})
	}
	if seen[canon.Associative|canon.SelfComplementary] == 0 || seen[canon.Associative|canon.Pandiagonal|canon.SelfComplementary] != 16 {
		t.Errorf("properties seen: %v", seen)
	}
}

// countMagic5Unit counts one unit.
func countMagic5Unit(u Magic5Unit) Magic5Count {
	return newMagic5Counter().countUnit(u)
}
