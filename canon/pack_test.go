package canon

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func TestPack25RoundTripAndOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := func() [25]byte {
		var c [25]byte
		for i := range c {
			c[i] = byte(rng.IntN(32)) + 1
		}
		return c
	}
	prev := random()
	for k := 0; k < 20000; k++ {
		c := random()
		if k%3 == 0 { // share a prefix with the previous square, so ties go deep
			copy(c[:rng.IntN(25)], prev[:])
		}
		p := Pack25(&c)
		var back [25]byte
		Unpack25(p, &back)
		if back != c {
			t.Fatalf("round trip of %v gave %v", c, back)
		}
		q, ok := Packed25From(p.Bytes())
		if !ok || q != p {
			t.Fatalf("bytes round trip of %v failed", c)
		}
		pp := Pack25(&prev)
		if want := bytes.Compare(prev[:], c[:]) < 0; pp.Less(p) != want || (bytes.Compare(pp.Bytes(), p.Bytes()) < 0) != want {
			t.Fatalf("order of %v and %v not kept", prev, c)
		}
		prev = c
	}
}

func TestPackQueensRoundTripAndOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 4, 8, 12, 13, 18, 19, 20, MaxPackedQueens} {
		random := func() []byte {
			q := make([]byte, n)
			for i := range q {
				q[i] = byte(rng.IntN(n))
			}
			return q
		}
		prev := random()
		for k := 0; k < 5000; k++ {
			q := random()
			if k%3 == 0 {
				copy(q[:rng.IntN(n)], prev)
			}
			p := PackQueens(nil, q)
			if len(p) != QueensPackedLen(n) {
				t.Fatalf("n=%d: %d bytes packed, want %d", n, len(p), QueensPackedLen(n))
			}
			back := make([]byte, n)
			UnpackQueens(p, back)
			if !bytes.Equal(back, q) {
				t.Fatalf("n=%d: round trip of %v gave %v", n, q, back)
			}
			if want := bytes.Compare(prev, q); bytes.Compare(PackQueens(nil, prev), p) != want {
				t.Fatalf("n=%d: order of %v and %v not kept", n, prev, q)
			}
			prev = q
		}
	}
	if got := QueensPackedLen(19); got != 12 {
		t.Errorf("queens:19 packs in %d bytes, want 12", got)
	}
	if got := PackQueens(nil, []byte{1, 3, 0, 2}); !bytes.Equal(got, []byte{0b00001_000, 0b11_00000_0, 0b0010_0000}) {
		t.Errorf("packed 1 3 0 2 = %08b", got)
	}
}
