package web

import (
	"container/list"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"solcat/catalog"
)

// The answers of scans a page may ask for again and again (a count under
// a filter, a statistic, a heat map) are kept, by the puzzle's content and
// the question: a page asked again is drawn from what the first worked
// out, without a scan, until the puzzle's content changes (a rebuild gives
// it another content hash and build time, so another key). Pages that ask
// a question while it is being worked out wait for that answer rather
// than scan again, outside the gate, within their own time limit; so a
// burst of requests over a few questions costs those few scans.

// maxAnswers bounds the answers kept: each is small (a count, a table of
// at most a few hundred rows, a map of N² cells), so a few thousand take
// a few megabytes at most.
const maxAnswers = 2048

// answerKey names a question about a puzzle as its content stands: what
// is asked (what), with the filter and anything else that shapes it.
func answerKey(rec catalog.Record, what string, question ...any) string {
	return fmt.Sprintf("%s|%s|%s%s|%d|%s|%v", rec.Name, rec.ContentHash, rec.BuiltAt.Format(time.RFC3339), rec.BuiltAtText, rec.Solutions, what, question)
}

// answers keeps the answers worked out, the most recently used first, and
// those being worked out.
type answers struct {
	mu     sync.Mutex
	max    int
	order  *list.List // of *kept, the most recently used first
	byKey  map[string]*list.Element
	flying map[string]*flight
}

type kept struct {
	key   string
	value any
}

// errNotWorkedOut is a flight's error until its answer is worked out.
var errNotWorkedOut = errors.New("the answer was not worked out")

// flight is an answer being worked out: done closes when it is.
type flight struct {
	done  chan struct{}
	value any
	err   error
}

func newAnswers(size int) *answers {
	return &answers{max: size, order: list.New(), byKey: map[string]*list.Element{}, flying: map[string]*flight{}}
}

// lookup returns the answer kept under key, if there is one.
func (a *answers) lookup(key string) (any, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	e, ok := a.byKey[key]
	if !ok {
		return nil, false
	}
	a.order.MoveToFront(e)
	return e.Value.(*kept).value, true
}

// do returns the answer kept under key, or the one being worked out for
// another request (waiting for it outside the gate), or works it out with
// compute and keeps it. A request whose wait for another's answer ends in
// that request's failure (its client left, its time ran out) works the
// answer out itself, if its own time allows.
func (a *answers) do(r *request, key string, compute func() (any, error)) (any, error) {
	for {
		a.mu.Lock()
		if e, ok := a.byKey[key]; ok {
			a.order.MoveToFront(e)
			a.mu.Unlock()
			return e.Value.(*kept).value, nil
		}
		f, waiting := a.flying[key]
		if !waiting {
			f = &flight{done: make(chan struct{}), err: errNotWorkedOut}
			a.flying[key] = f
			a.mu.Unlock()
			defer func() { // even if compute panics: the others must not wait for it
				a.mu.Lock()
				delete(a.flying, key)
				if f.err == nil {
					a.keep(key, f.value)
				}
				a.mu.Unlock()
				close(f.done)
			}()
			f.value, f.err = compute()
			return f.value, f.err
		}
		a.mu.Unlock()
		inside := r.inside
		r.leave()
		select {
		case <-f.done:
		case <-r.ctx.Done():
		}
		if r.ctx.Err() != nil {
			return nil, errorf(http.StatusServiceUnavailable, "the server is busy: the answer this page waits for was not worked out within %s; try again in a moment", r.limit)
		}
		if inside {
			if err := r.enter(quick); err != nil {
				return nil, err
			}
		}
		if f.err == nil {
			return f.value, nil
		}
	}
}

// keep stores an answer, forgetting the least recently used beyond max.
func (a *answers) keep(key string, value any) {
	a.byKey[key] = a.order.PushFront(&kept{key, value})
	for a.order.Len() > a.max {
		last := a.order.Back()
		a.order.Remove(last)
		delete(a.byKey, last.Value.(*kept).key)
	}
}
