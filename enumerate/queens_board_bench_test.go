package enumerate

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"solcat/canon"
)

// Benchmarks of the board counters' units on one worker, to plan long
// counts: each size counts a systematic sample of its units (every k-th,
// about SOLCAT_BENCH_UNITS of them, default 200; all of them where there
// are fewer; units differ a hundredfold in size, so a small sample says
// little) and reports the mean CPU time a unit takes (cpu-s/unit: the
// thread's own time, which a busy machine changes less than the time on
// the clock), the search nodes a CPU second (nodes/cpu-s), and the whole
// count's core-hours the sample gives (core-h/count: the mean times the
// units). For the sizes of the plan in docs/performance.md:
//
//	go test ./enumerate -run '^$' -bench 'ToroidalUnits|SuperqueenUnits' -benchtime 1x
func BenchmarkToroidalUnits(b *testing.B) {
	benchBoardUnits(b, canon.Toroidal, []int{17, 19, 23})
}

func BenchmarkSuperqueenUnits(b *testing.B) {
	benchBoardUnits(b, canon.Superqueen, []int{15, 17, 18, 19})
}

func benchBoardUnits(b *testing.B, prop canon.Property, sizes []int) {
	sample := 200
	if k, err := strconv.Atoi(os.Getenv("SOLCAT_BENCH_UNITS")); err == nil && k > 0 {
		sample = k
	}
	if list := os.Getenv("SOLCAT_BENCH_SIZES"); list != "" {
		sizes = nil
		for _, f := range strings.Split(list, ",") {
			if n, err := strconv.Atoi(strings.TrimSpace(f)); err == nil {
				sizes = append(sizes, n)
			}
		}
	}
	for _, n := range sizes {
		b.Run(sizeName(n), func(b *testing.B) {
			allowed := make([]uint64, n)
			for r := range allowed {
				allowed[r] = uint64(1)<<n - 1
			}
			q, err := newBoardCounter(prop, n, allowed)
			if err != nil {
				b.Fatal(err)
			}
			stride := max(1, len(q.units)/sample)
			var stop atomic.Bool
			var nodes, counted int64
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu0, ok := threadCPU()
			for b.Loop() {
				for i := stride / 2; i < len(q.units); i += stride {
					_, nd := q.countUnit(q.units[i], &stop)
					nodes += nd
					counted++
				}
			}
			secs := b.Elapsed().Seconds()
			if cpu1, _ := threadCPU(); ok {
				secs = (cpu1 - cpu0).Seconds()
			}
			perUnit := secs / float64(counted)
			b.ReportMetric(perUnit, "cpu-s/unit")
			b.ReportMetric(float64(nodes)/secs, "nodes/cpu-s")
			b.ReportMetric(perUnit*float64(len(q.units))/3600, "core-h/count")
			b.Logf("%s %s: %d units, %d counted (every %d-th) in %.2f s of CPU, %.2f s on the clock", prop, sizeName(n), len(q.units), counted, stride, secs, b.Elapsed().Seconds())
		})
	}
}
