package enumerate

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"solcat/canon"
)

// bruteConstrained counts the solutions under c by searching every row
// (the row-by-row counter of the small boards, on all first columns).
func bruteConstrained(c QueensConstraint) int64 {
	var total int64
	for col := range c.N {
		total += searchConstrained(c, col)
	}
	return total
}

// randomConstraint sets a few random squares of queens:n: queens (kept
// apart when asked, so the filter has solutions more often) and empty
// squares.
func randomConstraint(rng *rand.Rand, n int) QueensConstraint {
	c := NewQueensConstraint(n)
	for range rng.IntN(3) + 1 {
		r, col := rng.IntN(n), rng.IntN(n)
		if rng.IntN(3) == 0 {
			c.Empty(r, col)
		} else {
			c.Queen(r, col)
		}
	}
	return c
}

func TestConstrainedUnfiltered(t *testing.T) {
	for n := 1; n <= 14; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			got, err := CountQueensConstrained(context.Background(), NewQueensConstraint(n), 2)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := canon.KnownCounts(canon.Puzzle{Kind: canon.Queens, N: n})
			if got != want.Solutions {
				t.Errorf("queens:%d unfiltered: %d, A000170 says %d", n, got, want.Solutions)
			}
		})
	}
}

func TestConstrainedEqualsSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 1))
	for n := 4; n <= 13; n++ {
		for i := range 12 {
			c := randomConstraint(rng, n)
			t.Run(fmt.Sprintf("%d/%d", n, i), func(t *testing.T) {
				got, err := CountQueensConstrained(context.Background(), c, 1+i%2)
				if err != nil {
					t.Fatal(err)
				}
				want := bruteConstrained(c)
				if got != want {
					t.Errorf("queens:%d under %x: %d, the search counts %d", n, c.Allowed, got, want)
				}
				// The pure-Go loops count alike.
				q, _ := NewConstrainedCounter(c)
				q.vector = false
				var plain int64
				err = q.CountAll(context.Background(), 1, func(s int64) error { plain += s; return nil })
				if err != nil || plain != want {
					t.Errorf("queens:%d under %x without vectors: %d (%v), want %d", n, c.Allowed, plain, err, want)
				}
			})
		}
	}
}

// The first-row table of queens:n sums to A000170(n) and reads the same
// both ways (the mirror).
func TestConstrainedFirstRow(t *testing.T) {
	for _, n := range []int{8, 11, 12} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var sum int64
			row := make([]int64, n)
			for k := range n {
				c := NewQueensConstraint(n)
				c.Queen(0, k)
				got, err := CountQueensConstrained(context.Background(), c, 2)
				if err != nil {
					t.Fatal(err)
				}
				row[k] = got
				sum += got
			}
			want, _ := canon.KnownCounts(canon.Puzzle{Kind: canon.Queens, N: n})
			if sum != want.Solutions {
				t.Errorf("row sums to %d, want %d (%v)", sum, want.Solutions, row)
			}
			for k := range n {
				if row[k] != row[n-1-k] {
					t.Errorf("row %v is not a palindrome", row)
					break
				}
			}
		})
	}
}

// BenchmarkConstrainedCorner counts queens:16 with a queen in a corner.
func BenchmarkConstrainedCorner(b *testing.B) {
	for _, n := range []int{16, 17} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			c := NewQueensConstraint(n)
			c.Queen(0, 0)
			for b.Loop() {
				if _, err := CountQueensConstrained(context.Background(), c, 1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The images of a constraint count alike and are one question.
func TestConstrainedImages(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 2))
	for i := range 20 {
		n := 6 + i%6
		c := randomConstraint(rng, n)
		want := bruteConstrained(c)
		for _, s := range canon.All {
			img := c.image(s)
			if got := bruteConstrained(img); got != want {
				t.Errorf("queens:%d %x under %v: %d, want %d", n, c.Allowed, s, got, want)
			}
			if string(img.Question()) != string(c.Question()) {
				t.Errorf("queens:%d %x under %v: another question", n, c.Allowed, s)
			}
		}
	}
}

// Filters that are their own image under a mirror, the up-down flip or the
// half turn are counted through one of each pair of images (the others
// weighed in): the same counts as the search, vector loops or not.
func TestConstrainedSymmetryCut(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	symmetrize := func(c QueensConstraint, f flip) QueensConstraint {
		n := c.N
		out := c.Clone()
		for r := range n {
			switch f {
			case flipMirror:
				out.Allowed[r] &= reverseBits(c.Allowed[r], n)
			case flipUpDown:
				out.Allowed[r] &= c.Allowed[n-1-r]
			case flipHalfTurn:
				out.Allowed[r] &= reverseBits(c.Allowed[n-1-r], n)
			}
		}
		return out
	}
	for _, n := range []int{5, 8, 9, 12, 13} {
		for i := range 9 {
			c := randomConstraint(rng, n)
			switch i % 3 {
			case 0:
				c = symmetrize(c, flipMirror)
			case 1:
				c = symmetrize(c, flipUpDown)
			default:
				c = symmetrize(c, flipHalfTurn)
			}
			if i >= 6 { // all three at once
				c = symmetrize(symmetrize(c, flipMirror), flipUpDown)
			}
			if i%4 == 3 {
				c = NewQueensConstraint(n) // no filter at all: every flip kept
			}
			t.Run(fmt.Sprintf("%d/%d", n, i), func(t *testing.T) {
				want := bruteConstrained(c)
				// A filter that cannot be met may lose its symmetry as its
				// queens are propagated; its count is 0 all the same.
				if len(keptFlips(c.propagated())) == 0 && want > 0 {
					t.Fatalf("queens:%d under %x keeps no flip", n, c.Allowed)
				}
				for _, vector := range []bool{true, false} {
					q, err := NewConstrainedCounter(c)
					if err != nil {
						t.Fatal(err)
					}
					q.vector = q.vector && vector
					var got int64
					if err := q.CountAll(context.Background(), 2, func(s int64) error { got += s; return nil }); err != nil || got != want {
						t.Errorf("queens:%d under %x (vector %v): %d (%v), the search counts %d", n, c.Allowed, vector, got, err, want)
					}
				}
			})
		}
	}
}

// The row-by-row search, as it counts past queens:23, gives the same
// counts: split at the first row with a choice, halved by the mirror.
func TestConstrainedSearchUnits(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 2))
	for _, n := range []int{6, 9, 12} {
		for i := range 8 {
			c := randomConstraint(rng, n)
			if i%2 == 1 { // a mirrored filter with the first rows fixed
				c = NewQueensConstraint(n)
				c.Queen(0, i%n)
				c.Queen(0, i%n)
				if i > 4 {
					c = NewQueensConstraint(n)
					c.Empty(1, 0)
					c.Empty(1, n-1)
				}
			}
			t.Run(fmt.Sprintf("%d/%d", n, i), func(t *testing.T) {
				q := newConstrainedCounter(c.propagated(), false)
				var got int64
				if err := q.CountAll(context.Background(), 2, func(s int64) error { got += s; return nil }); err != nil {
					t.Fatal(err)
				}
				if want := bruteConstrained(c); got != want {
					t.Errorf("queens:%d under %x: %d, the search counts %d", n, c.Allowed, got, want)
				}
			})
		}
	}
}

// TestConstrainedCountStops: a constrained count stops within a second of
// its context's end, however long its units, and hands on no unit cut
// short.
func TestConstrainedCountStops(t *testing.T) {
	for _, n := range []int{20, 26} { // the halves counter, the row-by-row search
		c := NewQueensConstraint(n)
		c.Queen(0, 2)
		q, err := NewConstrainedCounter(c)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		began := time.Now()
		err = q.CountAll(ctx, 2, func(s int64) error {
			if s < 0 {
				t.Errorf("queens:%d: a unit cut short was handed on", n)
			}
			return nil
		})
		cancel()
		if took := time.Since(began); err == nil || took > 1300*time.Millisecond {
			t.Errorf("queens:%d: stopped after %v with %v; want a stop within a second", n, took, err)
		}
	}
}
