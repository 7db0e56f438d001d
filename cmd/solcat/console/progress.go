package console

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Progress draws a bar on stderr for builds and exports that last over
// about a second, and only when stderr is a terminal, so logs and pipes
// stay clean. It shows how much is done of how much, the rate since it
// began and the time left; a resumed build's bar starts at the saved part,
// which does not count towards the rate. Finish clears it, so the summary
// line that follows starts at the beginning of a line.
type Progress struct {
	out   io.Writer
	label string
	unit  string
	start time.Time
	bar   *progressbar.ProgressBar
	tty   bool
	first int64 // done when the bar was drawn first
	shown time.Time
}

func NewProgress(out io.Writer, label, unit string) *Progress {
	return &Progress{out: out, label: label, unit: unit, start: time.Now(), tty: IsTerminal(out)}
}

func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Update draws how far the work has come.
func (p *Progress) Update(done, total int64) {
	if !p.tty {
		return
	}
	if p.bar == nil {
		if time.Since(p.start) < time.Second {
			p.first = done // what was done before: a resumed build's saved part
			return
		}
		p.bar = progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(p.out),
			progressbar.OptionSetDescription(p.label),
			progressbar.OptionSetElapsedTime(false),
			progressbar.OptionSetPredictTime(false),
			progressbar.OptionShowDescriptionAtLineEnd(),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	if time.Since(p.shown) > 200*time.Millisecond {
		p.shown = time.Now()
		rate := float64(done-p.first) / time.Since(p.start).Seconds()
		left := "?"
		if rate > 0 {
			left = (time.Duration(float64(total-done)/rate) * time.Second).Round(time.Second).String()
		}
		p.bar.Describe(fmt.Sprintf("%s: %d of %d %s, %s %s/s, %s left", p.label, done, total, p.unit, human(rate), p.unit, left))
	}
	p.bar.Set64(done)
}

// Finish clears the bar.
func (p *Progress) Finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}

// human writes a rate with a k or M suffix.
func human(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%.1fM", v/1e6)
	case v >= 1e4:
		return fmt.Sprintf("%.0fk", v/1e3)
	}
	return fmt.Sprintf("%.0f", v)
}

// Hide keeps the bar from being drawn: for an output that goes to the
// terminal the bar would be drawn over.
func (p *Progress) Hide() { p.tty = false }
