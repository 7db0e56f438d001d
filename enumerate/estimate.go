package enumerate

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"time"
)

// A Prober draws samples of a count: each probe is a random number whose
// expectation is exactly the count (an unbiased estimator), so the mean of
// many independent probes converges to it. A probe must depend on nothing
// but the random stream it is given, so that a seed repeats a run.
type Prober interface {
	Probe(rng *rand.Rand) float64
}

// EstimateTerm is one stream of probes. An estimate is a weighted sum of
// the terms' means: the number of solutions is usually one term, and the
// number of classes adds the solutions each symmetry keeps (Burnside).
type EstimateTerm struct {
	Name   string
	Prober Prober
	// Share is how many probes the term gets in each round.
	Share int
	// Solutions and Classes weigh the term's mean in each quantity.
	Solutions, Classes float64
}

// EstimateOptions says when a run stops: at the first of Time, Precision
// (relative standard error of every quantity estimated) and Probes (the
// first term's probe count; a run with the same Seed and Probes repeats a
// run exactly). With none of them the run stops at Ctrl-C only.
type EstimateOptions struct {
	Seed      uint64
	Workers   int
	Time      time.Duration
	Precision float64
	Probes    int64
	// Progress is called after each batch of probes, from one goroutine.
	Progress func(EstimateResult)
}

// Quantity is an estimated count with its standard error.
type Quantity struct {
	Mean, StdErr float64
}

// Interval95 is the normal 95% interval, mean ± 1.96 standard errors.
func (q Quantity) Interval95() (lo, hi float64) {
	return q.Mean - 1.96*q.StdErr, q.Mean + 1.96*q.StdErr
}

// Relative is the standard error as a fraction of the mean.
func (q Quantity) Relative() float64 {
	if q.Mean == 0 {
		if q.StdErr == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return q.StdErr / math.Abs(q.Mean)
}

// EstimateResult is the state of a run: the estimates so far and the effort.
type EstimateResult struct {
	Solutions Quantity
	// Classes is set only when the terms estimate classes too.
	Classes    Quantity
	HasClasses bool
	Probes     int64 // the first term's probes
	AllProbes  int64 // every term's
	Elapsed    time.Duration
	Seed       uint64
}

// termSums accumulates one term's probes in index order, so that the sums
// are the same whatever the batching or the number of workers.
type termSums struct {
	n         int64
	sum, sum2 float64
}

func (s *termSums) add(x float64) {
	s.n++
	s.sum += x
	s.sum2 += x * x
}

func (s termSums) mean() float64 {
	if s.n == 0 {
		return 0
	}
	return s.sum / float64(s.n)
}

// varianceOfMean is the sample variance divided by the number of probes.
func (s termSums) varianceOfMean() float64 {
	if s.n < 2 {
		return math.Inf(1)
	}
	m := s.mean()
	v := (s.sum2 - float64(s.n)*m*m) / float64(s.n-1)
	if v < 0 {
		v = 0
	}
	return v / float64(s.n)
}

// minPrecisionProbes is the fewest probes a run stops at for its
// precision: the probes are skewed (many zeros, a long right tail), and a
// standard error from fewer is itself too uncertain to stop on.
const minPrecisionProbes = 1000

// ErrNoStop says an estimate was asked for with nothing to stop it.
var ErrNoStop = errors.New("an estimate needs a time, a precision or a number of probes to stop at")

// probeSeed gives probe i of term t its own stream, so that which worker
// draws it, and when, does not matter.
func probeSeed(seed uint64, t int, i int64) (uint64, uint64) {
	return seed, uint64(t)<<48 ^ uint64(i)
}

// RunEstimate runs the terms' probes on every worker until a stop in opt
// is reached or ctx ends (then it returns the estimate so far with ctx's
// error). Probes run in rounds; each round's results are added in probe
// order, so the same seed and probe count give the same numbers.
func RunEstimate(ctx context.Context, terms []EstimateTerm, opt EstimateOptions) (EstimateResult, error) {
	if opt.Time <= 0 && opt.Precision <= 0 && opt.Probes <= 0 && ctx.Done() == nil {
		return EstimateResult{}, ErrNoStop
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	start := time.Now()
	sums := make([]termSums, len(terms))
	result := func() EstimateResult {
		r := EstimateResult{Seed: opt.Seed, Elapsed: time.Since(start), Probes: sums[0].n}
		var vs, vc float64
		for i, t := range terms {
			m, v := sums[i].mean(), sums[i].varianceOfMean()
			r.AllProbes += sums[i].n
			r.Solutions.Mean += t.Solutions * m
			r.Classes.Mean += t.Classes * m
			if t.Solutions != 0 {
				vs += t.Solutions * t.Solutions * v
			}
			if t.Classes != 0 {
				vc += t.Classes * t.Classes * v
				r.HasClasses = true
			}
		}
		r.Solutions.StdErr, r.Classes.StdErr = math.Sqrt(vs), math.Sqrt(vc)
		return r
	}
	done := func(r EstimateResult) bool {
		if opt.Probes > 0 && r.Probes >= opt.Probes {
			return true
		}
		if opt.Time > 0 && r.Elapsed >= opt.Time {
			return true
		}
		if opt.Precision > 0 && r.Probes >= minPrecisionProbes && r.Solutions.Relative() <= opt.Precision &&
			(!r.HasClasses || r.Classes.Relative() <= opt.Precision) {
			return true
		}
		return false
	}
	// Rounds grow until one takes about a quarter of a second, so that a
	// run stops close to its time and the workers share out long probes.
	rounds := int64(16)
	var buf []float64
	for {
		first := sums[0].n
		k := rounds
		if opt.Probes > 0 && first+k > opt.Probes {
			k = opt.Probes - first
		}
		roundStart := time.Now()
		for ti, t := range terms {
			count := k * int64(t.Share)
			if ti == 0 {
				count = k
			}
			if int64(cap(buf)) < count {
				buf = make([]float64, count)
			}
			buf = buf[:count]
			if err := probeAll(ctx, t.Prober, opt.Seed, ti, sums[ti].n, buf, workers); err != nil {
				return result(), err
			}
			for _, x := range buf {
				sums[ti].add(x)
			}
		}
		r := result()
		if opt.Progress != nil {
			opt.Progress(r)
		}
		if done(r) {
			return r, nil
		}
		if time.Since(roundStart) < 250*time.Millisecond && rounds < 1<<22 {
			rounds *= 2
		}
	}
}

// probeAll fills out with probes from..from+len(out)-1 of term t, spread
// over the workers in chunks.
func probeAll(ctx context.Context, p Prober, seed uint64, t int, from int64, out []float64, workers int) error {
	const chunk = 64
	var next int64
	var mu sync.Mutex
	take := func() (int64, int64, bool) {
		mu.Lock()
		defer mu.Unlock()
		if next >= int64(len(out)) || ctx.Err() != nil {
			return 0, 0, false
		}
		lo := next
		next = min(next+chunk, int64(len(out)))
		return lo, next, true
	}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			src := rand.NewPCG(0, 0)
			rng := rand.New(src)
			for {
				lo, hi, ok := take()
				if !ok {
					return
				}
				for i := lo; i < hi; i++ {
					src.Seed(probeSeed(seed, t, from+i))
					out[i] = p.Probe(rng)
				}
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}
