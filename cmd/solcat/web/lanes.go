package web

import (
	"context"
	"net/http"
	"slices"
	"sync"

	"solcat/query"
)

// How the server shares itself out. Every page works inside the gate: a
// few pages at once, and of those waiting the quick ones first (the
// catalog, a class, a solution: a few reads and drawings), then those
// that draw a list. Long reads of the catalog, a page's scan (reading
// blocks or classes) or a piece of a download, take places of their own:
// one for each goroutine that reads, since each holds one of the
// catalog's connections while it reads, and there are as many of those
// as cores. By default there are fewer such places than connections, so
// that long reads always leave a connection to the pages' quick reads. A
// page leaves the gate while it waits for those places and while it
// scans, so scans never hold up the pages that need none; a download
// holds one only while it reads a piece, never while its client reads.
// Nothing is sent while anything is held: a page is drawn into memory,
// then sent.

// Priorities at the gate, the first first.
const (
	quick = iota // a few reads: the catalog, a class, a solution; a page back from its scan
	lists        // a page that may draw a list, or plan a scan
)

// gate lets a few requests in at once and, of those waiting, the quick
// ones first, in the order they came.
type gate struct {
	mu      sync.Mutex
	free    int
	waiting [2][]chan struct{} // by priority, oldest first
}

func newGate(size int) *gate { return &gate{free: size} }

// enter waits for a place at priority prio, or for ctx to end.
func (g *gate) enter(ctx context.Context, prio int) error {
	g.mu.Lock()
	if g.free > 0 {
		g.free--
		g.mu.Unlock()
		return nil
	}
	in := make(chan struct{})
	g.waiting[prio] = append(g.waiting[prio], in)
	g.mu.Unlock()
	select {
	case <-in:
		return nil
	case <-ctx.Done():
	}
	g.mu.Lock()
	i := slices.Index(g.waiting[prio], in)
	if i >= 0 {
		g.waiting[prio] = slices.Delete(g.waiting[prio], i, i+1)
	}
	g.mu.Unlock()
	if i < 0 {
		g.leave() // let in just as the time ran out: give the place on
	}
	return ctx.Err()
}

// leave gives a place to the first waiting at the first priority, or
// frees it.
func (g *gate) leave() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for prio, q := range g.waiting {
		if len(q) > 0 {
			close(q[0])
			g.waiting[prio] = q[1:]
			return
		}
	}
	g.free++
}

// enter takes the request's place at the gate.
func (r *request) enter(prio int) error {
	if err := r.s.gate.enter(r.ctx, prio); err != nil {
		return errorf(http.StatusServiceUnavailable, "the server is busy: this page could not start within %s; try again in a moment", r.s.timeout)
	}
	r.inside = true
	return nil
}

// leave gives the request's place up, if it has one.
func (r *request) leave() {
	if r.inside {
		r.inside = false
		r.s.gate.leave()
	}
}

// scans reports whether a plan reads blocks or classes: a scan, which may
// take seconds, rather than a few reads.
func scans(p *query.Plan) bool {
	return p.Way == query.BlockScan || p.Way == query.ClassScan || p.Way == query.ClassExpand || p.Way == query.ConstrainedCount
}

// plan plans a question for a page or download, its goroutines no more
// than there are places for long reads.
func (r *request) plan(t *query.BoundPuzzle, q query.Question) (*query.Plan, error) {
	p, err := t.Plan(r.ctx, q)
	if err == nil {
		p.Workers = min(p.Workers, r.s.readers)
	}
	return p, err
}

// query runs fn, which runs plans: at once if none of them scans, else
// outside the gate with a place for each goroutine of the widest scan
// (waiting for them, up to the page's time limit), and back at the gate
// with the quick pages, ahead of the others not yet begun, to draw what
// it read.
func (r *request) query(fn func() error, plans ...*query.Plan) error {
	var width int
	for _, p := range plans {
		if scans(p) {
			width = max(width, p.Workers, 1)
		}
	}
	return r.queryOn(width, fn)
}

// queryOn runs fn, a scan or count on width goroutines (0: none, a quick
// read), as query does.
func (r *request) queryOn(width int, fn func() error) error {
	if width == 0 {
		return fn()
	}
	r.leave()
	r.s.scans.Add(1)
	if r.s.reads.Acquire(r.ctx, int64(width)) != nil {
		return errorf(http.StatusServiceUnavailable, "the server is busy: every place for scans (%d) is taken, and this page's scan could not start within %s; try again, or narrow the filter (a prefix of fixed first cells, or a class)", r.s.readers, r.s.timeout)
	}
	err := fn()
	r.s.reads.Release(int64(width))
	if err != nil {
		return err
	}
	return r.enter(quick)
}
