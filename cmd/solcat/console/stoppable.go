package console

import (
	"context"
	"io"
	"sync"
	"time"
)

// stoppable is an output that gives up on a write once ctx ends: a write
// into a full pipe (solcat sql ... | less, less not reading) blocks in the
// kernel, where Ctrl-C does not reach it. A write still blocked stopGrace
// after ctx ends is left behind, on its own copy of the bytes, and this and
// every later write fail with ctx's error, so that the command ends as
// interrupted and the process exits. Only for the commands that have
// nothing to save.
type stoppable struct {
	ctx   context.Context
	w     io.Writer
	mu    sync.Mutex
	stuck bool
	buf   []byte
}

// Stoppable is w, stoppable unless it is a terminal: Ctrl-C reaches
// a terminal's writer, and commands ask whether theirs is one.
func Stoppable(ctx context.Context, w io.Writer) io.Writer {
	if IsTerminal(w) {
		return w
	}
	return &stoppable{ctx: ctx, w: w}
}

// Unwrap is the output written to: what a file's identity is asked of.
func (s *stoppable) Unwrap() io.Writer { return s.w }

// stopGrace is how long a write may still take once ctx has ended.
const stopGrace = 200 * time.Millisecond

func (s *stoppable) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stuck {
		return 0, s.ctx.Err()
	}
	type result struct {
		n   int
		err error
	}
	done := make(chan result, 1)
	// The write may outlive this call, so it writes a copy; one buffer
	// serves every write, as a write left behind is the last.
	s.buf = append(s.buf[:0], p...)
	go func() {
		n, err := s.w.Write(s.buf)
		done <- result{n, err}
	}()
	select {
	case r := <-done:
		return r.n, r.err
	case <-s.ctx.Done():
	}
	select {
	case r := <-done:
		return r.n, r.err
	case <-time.After(stopGrace):
		s.stuck = true
		return 0, s.ctx.Err()
	}
}
