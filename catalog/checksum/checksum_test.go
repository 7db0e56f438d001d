package checksum

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/zeebo/xxh3"
)

// TestSum64IsXXH3 checks Sum64 against the library's XXH3-64 on every
// length up to three blocks and then some, at every alignment of the
// start, on random bytes, and on the lengths the catalog's blocks have.
func TestSum64IsXXH3(t *testing.T) {
	if !haveLong {
		t.Log("no AVX-512 here: Sum64 is the library's hash (checked all the same)")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, 8192+64)
	for i := range buf {
		buf[i] = byte(rng.Uint32())
	}
	for n := 0; n <= 3200; n++ {
		for _, off := range []int{0, 1, 7, 8, 63} {
			b := buf[off : off+n]
			if got, want := Sum64(b), xxh3.Hash(b); got != want {
				t.Fatalf("length %d at offset %d: %016x, XXH3 %016x", n, off, got, want)
			}
		}
	}
	for _, n := range []int{4096, 5000, 8192} {
		if got, want := Sum64(buf[:n]), xxh3.Hash(buf[:n]); got != want {
			t.Fatalf("length %d: %016x, XXH3 %016x", n, got, want)
		}
	}
	// All ones and all zeros: carries through every lane.
	for _, v := range []byte{0, 0xff} {
		b := make([]byte, 2032)
		for i := range b {
			b[i] = v
		}
		if got, want := Sum64(b), xxh3.Hash(b); got != want {
			t.Fatalf("2032 bytes of %#x: %016x, XXH3 %016x", v, got, want)
		}
	}
}

func BenchmarkSum64(b *testing.B) {
	for _, n := range []int{2032, 16384} {
		buf := make([]byte, n)
		b.Run("checksum/"+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for range b.N {
				sink += Sum64(buf)
			}
		})
		b.Run("xxh3/"+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(n))
			for range b.N {
				sink += xxh3.Hash(buf)
			}
		})
	}
}

var sink uint64
