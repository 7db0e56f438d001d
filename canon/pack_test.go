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
