package enumerate

import (
	"context"
	"runtime"
	"sync"

	"golang.org/x/sync/errgroup"
)

// runOrdered runs work(i) for units 0..units-1 on up to workers goroutines
// (0: one per core) and hands the results to consume in unit order, from one
// goroutine, so the output does not depend on the worker count. A window
// bounds how far workers run ahead of consume; units are taken in order, so
// the unit consume waits for is always in flight.
func runOrdered[T any](ctx context.Context, units, workers int, work func(i int) T, consume func(i int, result T) error) error {
	if workers < 1 {
		workers = runtime.NumCPU()
	}
	results := make([]chan T, units)
	for i := range results {
		results[i] = make(chan T, 1)
	}
	window := make(chan struct{}, 4*workers)
	var next int
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	for w := 0; w < workers; w++ {
		g.Go(func() error {
			for {
				select {
				case window <- struct{}{}:
				case <-gctx.Done():
					return gctx.Err()
				}
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= units {
					<-window
					return nil
				}
				results[i] <- work(i)
			}
		})
	}
	g.Go(func() error {
		for i := 0; i < units; i++ {
			// select picks at random between a ready result and a cancelled
			// context: a cancelled run must stop at the unit it reached.
			if err := gctx.Err(); err != nil {
				return err
			}
			var r T
			select {
			case r = <-results[i]:
			case <-gctx.Done():
				return gctx.Err()
			}
			<-window
			if err := consume(i, r); err != nil {
				return err
			}
		}
		return nil
	})
	return g.Wait()
}
