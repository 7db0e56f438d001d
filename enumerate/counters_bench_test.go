package enumerate

import (
	"context"
	"fmt"
	"testing"
)

// Benchmarks of the counters that count-only builds run, one worker, so
// that a change to a hot loop is measured before and after it
// (go test ./enumerate -run '^$' -bench Counter -count 5, with benchstat).
// The sizes keep a run near a second on one core.

func BenchmarkJoinCounter(b *testing.B) {
	for _, n := range []int{15, 16} {
		b.Run(sizeName(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := CountQueensJoin(context.Background(), n, 1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkHalvesCounter(b *testing.B) {
	for _, n := range []int{14, 16} {
		b.Run(sizeName(n), func(b *testing.B) {
			// Each size skips alone: queens:14 is below the counter's.
			if !HalvesCounterApplies(n) {
				b.Skipf("the halves counter does not run on this machine (no AVX-512) or at queens:%d", n)
			}
			for b.Loop() {
				if _, err := CountQueensCountOnly(context.Background(), n, 1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkMagic5Counter counts the first unit of order 5 (one centre and
// one diagonal set): about 1/2000 of magic:5.
func BenchmarkMagic5Counter(b *testing.B) {
	units := Magic5Units()
	for b.Loop() {
		err := CountMagic5Units(context.Background(), units, []int{0}, 1, func(int, Magic5Count) error { return nil })
		if err != nil {
			b.Fatal(err)
		}
	}
}

func sizeName(n int) string { return fmt.Sprintf("queens:%d", n) }
