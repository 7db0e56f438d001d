package enumerate

import (
	"context"
	"math/bits"
	"slices"

	"solcat/canon"
)

// Order-5 magic squares are counted, not listed: 2,202,441,792 of them.
//
// The count fixes the centre c and the two diagonals, then counts the ways
// to fill the 16 other cells. Those cells fall into two frames of 8:
//
//	A: row 0 and row 4 without their corners, and (2,1), (2,3)
//	B: column 0 and column 4 without their corners, and (1,2), (3,2)
//
// A's cells lie on rows 0 and 4 and columns 1 and 3 only; B's on columns 0
// and 4 and rows 1 and 3. Each frame is a ring of 8 cells (4 corners and 4
// middles) whose 4 lines have known sums, so it is fixed by its corners.
// Row 2 and column 2 hold cells of both frames, but their sums follow from
// the others once A and B together use each remaining value once: the 16
// values sum to what the free cells of all rows (or all columns) need. So
// the squares with given diagonals are the pairs (A filling, B filling)
// whose value sets split the 16 remaining values: count B's fillings by
// value set, then look up the complement of each A filling's set.
//
// One square of each class of the 32-element group (the 8 symmetries of the
// square and Schroeppel's M-transformations, which act freely here) is kept
// by ordering the diagonals: (0,0) holds the smallest of the 8 off-centre
// diagonal values, (1,1) < (3,3) and (0,4) < (4,0). Each such basic square
// stands for 32 squares in 4 classes of 8. Centres c and 26-c have the same
// counts (x -> 26-x maps one set onto the other), so centres 1 to 13 are
// counted and 14 to 25 follow.

// Magic5Sum is the magic constant of order 5.
const magic5Sum = 65

// A Magic5Unit is a work unit of the order-5 count: a centre value and the
// set of the four other values on the main diagonal.
type Magic5Unit struct {
	Centre int
	Diag   [4]byte // increasing; Diag[0] goes to (0,0)
}

// Prefix encodes the unit as bytes: centre, then the diagonal set.
func (u Magic5Unit) Prefix() []byte {
	return []byte{byte(u.Centre), u.Diag[0], u.Diag[1], u.Diag[2], u.Diag[3]}
}

// magic5Sets lists, in increasing order, the 4-sets of 1..25 without c
// summing to 65-c: the off-centre values of a diagonal.
func magic5Sets(c int) [][4]byte {
	var sets [][4]byte
	for a := 1; a <= 25; a++ {
		for b := a + 1; b <= 25; b++ {
			for d := b + 1; d <= 25; d++ {
				e := magic5Sum - c - a - b - d
				if e > d && e <= 25 && a != c && b != c && d != c && e != c {
					sets = append(sets, [4]byte{byte(a), byte(b), byte(d), byte(e)})
				}
			}
		}
	}
	return sets
}

// Magic5Units lists the work units in order: centres 1 to 13, diagonal sets
// in increasing order.
func Magic5Units() []Magic5Unit {
	var units []Magic5Unit
	for c := 1; c <= 13; c++ {
		for _, s := range magic5Sets(c) {
			units = append(units, Magic5Unit{Centre: c, Diag: s})
		}
	}
	return units
}

// Magic5Count is what a unit (or a whole count) found.
type Magic5Count struct {
	Basic   int64 // squares with the ordered diagonals: each stands for 32 squares, 4 classes
	Configs int64 // diagonal arrangements tried
}

// A magic5Counter holds one worker's tables.
type magic5Counter struct {
	// Fillings of frame B by value set, stamped with the arrangement they
	// belong to so the table need not be cleared between arrangements.
	stamp []uint32
	count []uint32
	gen   uint32
	// pack maps a subset of the 16 remaining values to a 16-bit index:
	// byte k of the set (values shifted down by 1) is looked up in pack[k].
	pack  [4][256]uint16
	shift [4]uint
	buf   []uint32
	// emit, when set, receives every basic square (the property counts and
	// the tests use it); B's fillings are then kept whole, by value set.
	emit        func(square *[25]byte)
	associative bool // with emit: only squares symmetric about the centre
	bCells      map[uint32][][8]byte
	aCells      [][8]byte
	bScratch    [][8]byte
}

func newMagic5Counter() *magic5Counter {
	return &magic5Counter{stamp: make([]uint32, 1<<16), count: make([]uint32, 1<<16), buf: make([]uint32, 0, 1024)}
}

// setRemaining prepares pack for the 16 values in rest (bits 1..25).
func (m *magic5Counter) setRemaining(rest uint32) {
	rest >>= 1
	shift := uint(0)
	for k := 0; k < 4; k++ {
		part := rest >> (8 * k) & 0xff
		for v := 0; v < 256; v++ {
			m.pack[k][v] = uint16(pext8(uint32(v), part))
		}
		m.shift[k] = shift
		shift += uint(bits.OnesCount32(part))
	}
}

// pext8 gathers the bits of v selected by mask into the low bits.
func pext8(v, mask uint32) uint32 {
	var out uint32
	k := 0
	for i := 0; i < 8; i++ {
		if mask>>i&1 == 1 {
			out |= (v >> i & 1) << k
			k++
		}
	}
	return out
}

func (m *magic5Counter) index(set uint32) uint32 {
	set >>= 1
	return uint32(m.pack[0][set&0xff])<<m.shift[0] | uint32(m.pack[1][set>>8&0xff])<<m.shift[1] |
		uint32(m.pack[2][set>>16&0xff])<<m.shift[2] | uint32(m.pack[3][set>>24])<<m.shift[3]
}

// countUnit counts the basic squares of one unit.
func (m *magic5Counter) countUnit(u Magic5Unit) Magic5Count {
	var out Magic5Count
	c := u.Centre
	main := u.Diag
	perms := [6][3]int{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}
	for _, anti := range magic5Sets(c) {
		// (0,0) takes the smallest of the 8 values: main[0] < anti[0].
		used := uint32(1)<<c | 1<<main[0] | 1<<main[1] | 1<<main[2] | 1<<main[3]
		if anti[0] < main[0] || used&(1<<anti[0]|1<<anti[1]|1<<anti[2]|1<<anti[3]) != 0 {
			continue
		}
		used |= 1<<anti[0] | 1<<anti[1] | 1<<anti[2] | 1<<anti[3]
		rest := magic5Values &^ used
		m.setRemaining(rest)
		for _, pm := range perms {
			d := diag5{a00: int(main[0]), a11: int(main[1+pm[0]]), a33: int(main[1+pm[1]]), a44: int(main[1+pm[2]])}
			if d.a11 > d.a33 {
				continue
			}
			for _, pa := range antiPerms {
				d.a04, d.a13, d.a31, d.a40 = int(anti[pa[0]]), int(anti[pa[1]]), int(anti[pa[2]]), int(anti[pa[3]])
				if d.a04 > d.a40 {
					continue
				}
				if m.associative && (d.a00+d.a44 != 26 || d.a11+d.a33 != 26 || d.a04+d.a40 != 26 || d.a13+d.a31 != 26) {
					continue
				}
				out.Configs++
				out.Basic += m.countArrangement(c, &d, rest)
			}
		}
	}
	return out
}

// magic5Values are the values 1..25 as bits 1..25.
const magic5Values = uint32(1)<<26 - 2

// antiPerms are the 24 orders of a 4-set.
var antiPerms = func() [][4]int {
	var out [][4]int
	for a := 0; a < 4; a++ {
		for b := 0; b < 4; b++ {
			for c := 0; c < 4; c++ {
				if a != b && a != c && b != c {
					out = append(out, [4]int{a, b, c, 6 - a - b - c})
				}
			}
		}
	}
	return out
}()

// diag5 is an arrangement of the diagonals (the centre aside).
type diag5 struct{ a00, a11, a33, a44, a04, a13, a31, a40 int }

// countArrangement counts the squares with these diagonals.
func (m *magic5Counter) countArrangement(c int, d *diag5, rest uint32) int64 {
	const s = magic5Sum
	// Frame B: corners (1,0) (1,4) (3,0) (3,4); rows 1 and 3, columns 0 and 4.
	bTop, bBot, bLeft, bRight := s-d.a11-d.a13, s-d.a31-d.a33, s-d.a00-d.a40, s-d.a04-d.a44
	// Frame A: corners (0,1) (0,3) (4,1) (4,3); rows 0 and 4, columns 1 and 3.
	aTop, aBot, aLeft, aRight := s-d.a00-d.a04, s-d.a40-d.a44, s-d.a11-d.a31, s-d.a13-d.a33
	if m.emit != nil {
		return m.emitArrangement(c, d, rest, [4]int{bTop, bBot, bLeft, bRight}, [4]int{aTop, aBot, aLeft, aRight})
	}
	m.gen++
	gen := m.gen
	m.buf = frameFillings(rest, bTop, bBot, bLeft, bRight, m.buf[:0], nil)
	for _, set := range m.buf {
		i := m.index(set)
		if m.stamp[i] != gen {
			m.stamp[i], m.count[i] = gen, 0
		}
		m.count[i]++
	}
	var n int64
	m.buf = frameFillings(rest, aTop, aBot, aLeft, aRight, m.buf[:0], nil)
	for _, set := range m.buf {
		if i := m.index(rest &^ set); m.stamp[i] == gen {
			n += int64(m.count[i])
		}
	}
	return n
}

// frameFillings appends to sets the value sets of the fillings of a frame
// from the values in rest: corners p, q on the top line, r, s on the bottom
// one; the middles are forced: top-p-q, bot-r-s, left-p-r, right-q-s. With
// cells not nil it also appends each filling as p, top middle, q, left
// middle, right middle, r, bottom middle, s.
func frameFillings(rest uint32, top, bot, left, right int, sets []uint32, cells *[][8]byte) []uint32 {
	for ps := rest; ps != 0; ps &= ps - 1 {
		p := bits.TrailingZeros32(ps)
		r1 := rest &^ (1 << p)
		// q such that top-p-q is also free and differs from q.
		qs := r1 & mirror(r1, top-p) &^ half(top-p)
		for ; qs != 0; qs &= qs - 1 {
			q := bits.TrailingZeros32(qs)
			mTop := top - p - q
			r2 := r1 &^ (1<<q | 1<<mTop)
			rs := r2 & mirror(r2, left-p) &^ half(left-p)
			for ; rs != 0; rs &= rs - 1 {
				r := bits.TrailingZeros32(rs)
				mLeft := left - p - r
				r3 := r2 &^ (1<<r | 1<<mLeft)
				ss := r3 & mirror(r3, bot-r) & mirror(r3, right-q)
				for ; ss != 0; ss &= ss - 1 {
					s := bits.TrailingZeros32(ss)
					mBot, mRight := bot-r-s, right-q-s
					if mBot == s || mRight == s || mBot == mRight {
						continue
					}
					sets = append(sets, rest&^r3|1<<s|1<<mBot|1<<mRight)
					if cells != nil {
						*cells = append(*cells, [8]byte{byte(p), byte(mTop), byte(q), byte(mLeft), byte(mRight), byte(r), byte(mBot), byte(s)})
					}
				}
			}
		}
	}
	return sets
}

// mirror returns the values k-x for the values x in set (bits 1..25).
func mirror(set uint32, k int) uint32 {
	rev := bits.Reverse32(set) // bit 31-x for each x
	if k <= 31 {
		return rev >> uint(31-k) & magic5Values
	}
	return rev << uint(k-31) & magic5Values
}

// half is the value x = k-x, which cannot pair with itself.
func half(k int) uint32 {
	if k&1 == 0 && k > 0 && k <= 50 {
		return 1 << uint(k/2) & magic5Values
	}
	return 0
}

// CountMagic5Units counts the listed units (indexes into Magic5Units()) on
// up to workers goroutines and hands each unit's count to done, in the order
// listed, from one goroutine.
func CountMagic5Units(ctx context.Context, units []Magic5Unit, todo []int, workers int, done func(i int, c Magic5Count) error) error {
	counters := make(chan *magic5Counter, max(workers, 1)*8)
	return runOrdered(ctx, len(todo), workers, func(k int) Magic5Count {
		var m *magic5Counter
		select {
		case m = <-counters:
		default:
			m = newMagic5Counter()
		}
		c := m.countUnit(units[todo[k]])
		select {
		case counters <- m:
		default:
		}
		return c
	}, func(k int, c Magic5Count) error {
		return done(todo[k], c)
	})
}

// emitArrangement is countArrangement when squares are wanted: it builds
// every one.
func (m *magic5Counter) emitArrangement(c int, d *diag5, rest uint32, b, a [4]int) int64 {
	clear(m.bCells)
	m.bScratch = m.bScratch[:0]
	m.buf = frameFillings(rest, b[0], b[1], b[2], b[3], m.buf[:0], &m.bScratch)
	for k, set := range m.buf {
		if !m.associative || associativeFrame(m.bScratch[k]) {
			m.bCells[set] = append(m.bCells[set], m.bScratch[k])
		}
	}
	m.aCells = m.aCells[:0]
	m.buf = frameFillings(rest, a[0], a[1], a[2], a[3], m.buf[:0], &m.aCells)
	var n int64
	var sq [25]byte
	for k, set := range m.buf {
		if m.associative && !associativeFrame(m.aCells[k]) {
			continue
		}
		for _, bc := range m.bCells[rest&^set] {
			ac := m.aCells[k]
			// Frame A: p (0,1), top middle (0,2), q (0,3), left middle (2,1),
			// right middle (2,3), r (4,1), bottom middle (4,2), s (4,3).
			// Frame B: p (1,0), top middle (1,2), q (1,4), left middle (2,0),
			// right middle (2,4), r (3,0), bottom middle (3,2), s (3,4).
			sq = [25]byte{
				byte(d.a00), ac[0], ac[1], ac[2], byte(d.a04),
				bc[0], byte(d.a11), bc[1], byte(d.a13), bc[2],
				bc[3], ac[3], byte(c), ac[4], bc[4],
				bc[5], byte(d.a31), bc[6], byte(d.a33), bc[7],
				byte(d.a40), ac[5], ac[6], ac[7], byte(d.a44),
			}
			m.emit(&sq)
			n++
		}
	}
	return n
}

// magic5Emit counts one unit and hands every basic square to emit.
func magic5Emit(u Magic5Unit, emit func(square *[25]byte)) Magic5Count {
	m := newMagic5Counter()
	m.emit, m.bCells = emit, map[uint32][][8]byte{}
	return m.countUnit(u)
}

// Magic5Associative finds the associative order-5 squares (x and 26-x
// symmetric about the centre, so the centre is 13) one per 32-element class,
// and hands each to emit. Central symmetry maps each frame onto itself, so
// a frame filling qualifies on its own: corners p, s and q, r, and the
// opposite middles, are complementary; the diagonals pair up the same way.
// It returns how many it found.
func Magic5Associative(emit func(square *[25]byte)) int64 {
	m := newMagic5Counter()
	m.emit, m.bCells = emit, map[uint32][][8]byte{}
	m.associative = true
	var n int64
	for _, u := range Magic5Units() {
		if u.Centre == 13 && int(u.Diag[0]+u.Diag[3]) == 26 && int(u.Diag[1]+u.Diag[2]) == 26 {
			n += m.countUnit(u).Basic
		}
	}
	return n
}

// associativeFrame reports whether a frame filling (p, top middle, q, left
// middle, right middle, r, bottom middle, s) is symmetric about the centre.
func associativeFrame(f [8]byte) bool {
	return f[0]+f[7] == 26 && f[2]+f[5] == 26 && f[1]+f[6] == 26 && f[3]+f[4] == 26
}

// magic5Ms generate, with the symmetries of the square, the 32-element
// group: swap rows and columns 1 and 5; swap rows and columns 1, 2 and 4, 5.
var magic5Ms = [2][5]int{{4, 1, 2, 3, 0}, {1, 0, 2, 4, 3}}

// Magic5Classes returns one member of each of the 4 classes (under the 8
// symmetries of the square) that a square's 32-element class holds: its
// images under the M-transformations, two per class, the first of each kept.
func Magic5Classes(square []byte) [][]byte {
	c := canon.NewImages(canon.Puzzle{Kind: canon.Magic, N: 5})
	seen := map[string]bool{}
	var out [][]byte
	for _, perm := range magic5MImages {
		img := make([]byte, 25)
		for r := 0; r < 5; r++ {
			for col := 0; col < 5; col++ {
				img[r*5+col] = square[perm[r]*5+perm[col]]
			}
		}
		if form := string(c.Canonical(img).Canonical); !seen[form] {
			seen[form] = true
			out = append(out, img)
		}
	}
	return out
}

// magic5MImages are the 8 permutations of rows and columns (applied to
// both) that the M-transformations generate: a dihedral group of order 8
// that meets the symmetries of the square in the identity and the half turn.
var magic5MImages = func() [][5]int {
	out := [][5]int{{0, 1, 2, 3, 4}}
	for i := 0; i < len(out); i++ {
		for _, m := range magic5Ms {
			var next [5]int
			for r := range next {
				next[r] = out[i][m[r]]
			}
			if !slices.Contains(out, next) {
				out = append(out, next)
			}
		}
	}
	return out
}()

// pandiagonal5 reports whether every broken diagonal of an order-5 square,
// in both directions, sums to 65 (its rows and columns do already).
func pandiagonal5(sq *[25]byte, perm *[5]int) bool {
	for k := 0; k < 5; k++ {
		down, up := 0, 0
		for i := 0; i < 5; i++ {
			down += int(sq[perm[i]*5+perm[(i+k)%5]])
			up += int(sq[perm[i]*5+perm[(k-i+5)%5]])
		}
		if down != magic5Sum || up != magic5Sum {
			return false
		}
	}
	return true
}

// CountMagic5Pandiagonal counts the classes of pandiagonal order-5 squares.
// A pandiagonal square stays pandiagonal (and magic) when its rows and
// columns are shifted cyclically, and exactly one of its 25 shifts has 13
// in the centre; so the pandiagonal squares are 25 times those with centre
// 13, which the frame search lists (as basic squares, each standing for 4
// classes: the M-images, two per class). It searches centre 13 only, on up
// to workers goroutines.
func CountMagic5Pandiagonal(ctx context.Context, workers int) (int64, error) {
	units := Magic5Units()
	var todo []int
	for i, u := range units {
		if u.Centre == 13 {
			todo = append(todo, i)
		}
	}
	var images int64 // pandiagonal M-images of basic squares with centre 13
	err := runOrdered(ctx, len(todo), workers, func(k int) int64 {
		var n int64
		magic5Emit(units[todo[k]], func(sq *[25]byte) {
			for i := range magic5MImages {
				if pandiagonal5(sq, &magic5MImages[i]) {
					n++
				}
			}
		})
		return n
	}, func(_ int, n int64) error {
		images += n
		return nil
	})
	// images/2 classes with centre 13, each of 8 squares; 25 shifts of each.
	return 25 * images / 2, err
}
