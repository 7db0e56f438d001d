package console

import (
	"fmt"
	"io"
	"time"
)

// StatusLine redraws one line of state on stderr, when it is a terminal,
// at most five times a second: a run whose progress is not a count of
// units, such as an estimate that sharpens as it goes.
type StatusLine struct {
	out   io.Writer
	tty   bool
	shown time.Time
	drawn bool
}

func NewStatusLine(out io.Writer) *StatusLine { return &StatusLine{out: out, tty: IsTerminal(out)} }

// Show draws text in place of the line before.
func (s *StatusLine) Show(text string) {
	if !s.tty || time.Since(s.shown) < 200*time.Millisecond {
		return
	}
	s.shown, s.drawn = time.Now(), true
	fmt.Fprintf(s.out, "\r\x1b[K%s", text)
}

// Finish clears the line.
func (s *StatusLine) Finish() {
	if s.drawn {
		fmt.Fprint(s.out, "\r\x1b[K")
		s.drawn = false
	}
}
