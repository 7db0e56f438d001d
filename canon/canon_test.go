package canon

import (
	"bytes"
	"slices"
	"testing"
)

func TestGroupLaws(t *testing.T) {
	const n = 5
	for _, s := range All {
		if s.then(s.Inverse()) != Identity || s.Inverse().then(s) != Identity {
			t.Errorf("%v: inverse %v does not undo it", s, s.Inverse())
		}
		for _, u := range All {
			for r := 0; r < n; r++ {
				for c := 0; c < n; c++ {
					r1, c1 := s.Map(n, r, c)
					r2, c2 := u.Map(n, r1, c1)
					r3, c3 := s.then(u).Map(n, r, c)
					if r2 != r3 || c2 != c3 {
						t.Fatalf("%v then %v = %v disagrees with Map at (%d,%d)", s, u, s.then(u), r, c)
					}
				}
			}
			for _, v := range All {
				if s.then(u).then(v) != s.then(u.then(v)) {
					t.Fatalf("composition is not associative at %v, %v, %v", s, u, v)
				}
			}
		}
	}
}

func TestSymmetryNames(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range All {
		name := s.String()
		if seen[name] || name == "invalid" {
			t.Errorf("bad or repeated name %q", name)
		}
		seen[name] = true
		if back, ok := parseSymmetry(name); !ok || back != s {
			t.Errorf("parseSymmetry(%q) = %v, %v", name, back, ok)
		}
	}
	// Rotations are clockwise: the top-left corner goes to the top-right.
	if r, c := Rot90.Map(4, 0, 0); r != 0 || c != 3 {
		t.Errorf("rot90 sends (0,0) to (%d,%d), want (0,3)", r, c)
	}
	if Rot90.then(Rot90) != Rot180 || Rot90.then(Rot180) != Rot270 || MirrorLR.then(MirrorUD) != Rot180 {
		t.Error("rotation table is wrong")
	}
}

// loShu is the order-3 magic square in Frénicle form.
var loShu = []byte{2, 7, 6, 9, 5, 1, 4, 3, 8}

func TestCanonicalLoShu(t *testing.T) {
	p := Puzzle{Magic, 3}
	c := NewImages(p)
	img := make([]byte, 9)
	for _, s := range All {
		p.Apply(s, img, loShu)
		if err := p.Check(img); err != nil {
			t.Fatalf("%v image is not magic: %v", s, err)
		}
		f := c.Canonical(img)
		if !bytes.Equal(f.Canonical, loShu) || f.Orbit != 8 {
			t.Errorf("%v image %v: canonical %v orbit %d, want %v orbit 8", s, img, f.Canonical, f.Orbit, loShu)
		}
		if f.From != s {
			t.Errorf("%v image: From = %v", s, f.From)
		}
		back := make([]byte, 9)
		p.Apply(f.From, back, f.Canonical)
		if !bytes.Equal(back, img) {
			t.Errorf("From %v applied to canonical gives %v, want %v", f.From, back, img)
		}
	}
}

func TestQueensImagesAreSolutions(t *testing.T) {
	p := Puzzle{Queens, 8}
	sol := []byte{2, 5, 1, 4, 7, 0, 6, 3} // 3 6 2 5 8 1 7 4
	img := make([]byte, 8)
	for _, s := range All {
		p.Apply(s, img, sol)
		if err := p.Check(img); err != nil {
			t.Errorf("%v image %v: %v", s, img, err)
		}
	}
	// The one singly symmetric 8-queens class, 3 5 2 8 1 7 4 6, is fixed by rot180 only.
	sym := []byte{2, 4, 1, 7, 0, 6, 3, 5}
	got := p.Stabilizer(sym)
	if len(got) != 2 || got[0] != Identity || got[1] != Rot180 {
		t.Errorf("stabilizer of %v = %v, want identity, rot180", sym, got)
	}
	if f := NewImages(p).Canonical(sym); f.Orbit != 4 {
		t.Errorf("orbit of %v = %d, want 4", sym, f.Orbit)
	}
	// queens:4 has one class, fixed by the quarter turn.
	if f := NewImages(Puzzle{Queens, 4}).Canonical([]byte{1, 3, 0, 2}); f.Orbit != 2 {
		t.Errorf("queens:4 orbit %d, want 2", f.Orbit)
	}
}

func TestClassifierNeedsOrder(t *testing.T) {
	k := NewClassifier(Puzzle{Queens, 4})
	if _, err := k.Add([]byte{2, 0, 3, 1}); err == nil {
		t.Fatal("a non-canonical first solution was accepted")
	}
}

func TestParsePuzzles(t *testing.T) {
	good := []struct {
		in    string
		first Puzzle
		count int
	}{
		{"magic:4", Puzzle{Magic, 4}, 1},
		{"queens:1-14", Puzzle{Queens, 1}, 14},
		{"QUEENS:8", Puzzle{Queens, 8}, 1},
		{"magic:3-3", Puzzle{Magic, 3}, 1},
	}
	for _, tc := range good {
		t.Run(tc.in, func(t *testing.T) {
			ps, err := ParsePuzzles(tc.in)
			if err != nil || len(ps) != tc.count || ps[0] != tc.first {
				t.Fatalf("ParsePuzzles(%q) = %v, %v", tc.in, ps, err)
			}
		})
	}
	for _, in := range []string{"", "queens", "queens:x", "magic:0", "magic:-1", "chess:8", "queens:8-4",
		"queens:1-", "queens:+3", "queens:99", "queens:3:4", "queens: 8", "magic:1-2-3"} {
		t.Run("bad "+in, func(t *testing.T) {
			if ps, err := ParsePuzzles(in); err == nil {
				t.Fatalf("ParsePuzzles(%q) = %v, want an error", in, ps)
			}
		})
	}
}

func FuzzParsePuzzles(f *testing.F) {
	for _, s := range []string{"magic:4", "queens:1-14", "queens:x", "magic:0", "chess:8", "queens:8-4"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ps, err := ParsePuzzles(s)
		if err != nil {
			return
		}
		if len(ps) == 0 {
			t.Fatalf("%q: no puzzles and no error", s)
		}
		for _, p := range ps {
			if p.N < 1 || p.N > MaxN || (p.Kind != Magic && p.Kind != Queens) {
				t.Fatalf("%q gave %v", s, p)
			}
			back, err := ParsePuzzle(p.String())
			if err != nil || back != p {
				t.Fatalf("%v does not round-trip: %v, %v", p, back, err)
			}
		}
	})
}

func BenchmarkCanonicalMagic4(b *testing.B) {
	c := NewImages(Puzzle{Magic, 4})
	sq := []byte{16, 15, 2, 1, 5, 3, 14, 12, 4, 10, 7, 13, 9, 6, 11, 8}
	for b.Loop() {
		c.Canonical(sq)
	}
}

func BenchmarkCanonicalQueens14(b *testing.B) {
	c := NewImages(Puzzle{Queens, 14})
	sol := []byte{0, 2, 4, 6, 11, 9, 12, 3, 13, 8, 1, 5, 7, 10} // the first 14-queens solution
	if err := (Puzzle{Queens, 14}).Check(sol); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		c.Canonical(sol)
	}
}

// TestCellOrbits checks the cell orbits' count and sizes, and that each
// orbit is closed under the symmetries.
func TestCellOrbits(t *testing.T) {
	for _, tc := range []struct {
		n     int
		sizes []int
	}{
		{1, []int{1}},
		{2, []int{4}},
		{3, []int{4, 4, 1}},
		{4, []int{4, 8, 4}},
		{5, []int{4, 8, 4, 4, 4, 1}},
	} {
		orbitOf, size := CellOrbits(tc.n)
		if !slices.Equal(size, tc.sizes) {
			t.Errorf("n=%d: sizes %v, want %v", tc.n, size, tc.sizes)
		}
		for x, k := range orbitOf {
			for _, s := range All {
				r, c := s.Map(tc.n, x/tc.n, x%tc.n)
				if orbitOf[r*tc.n+c] != k {
					t.Errorf("n=%d: cell %d in orbit %d, its image (%d,%d) in %d", tc.n, x, k, r, c, orbitOf[r*tc.n+c])
				}
			}
		}
	}
}

// parseSymmetry is the inverse of String (for the tests).
func parseSymmetry(name string) (Symmetry, bool) {
	for s, n := range names {
		if n == name {
			return s, true
		}
	}
	return 0, false
}
