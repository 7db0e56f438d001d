package main

import (
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress draws a bar on stderr for builds and exports that last over about a second,
// and only when stderr is a terminal, so logs and pipes stay clean.
type progress struct {
	out   io.Writer
	label string
	start time.Time
	bar   *progressbar.ProgressBar
	tty   bool
}

func newProgress(out io.Writer, label string) *progress {
	return &progress{out: out, label: label, start: time.Now(), tty: isTerminal(out)}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Update draws how far the work has come.
func (p *progress) Update(done, total int64) {
	if !p.tty || time.Since(p.start) < time.Second {
		return
	}
	if p.bar == nil {
		p.bar = progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(p.out),
			progressbar.OptionSetDescription(p.label),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	p.bar.Set64(done)
}

// Finish ends the bar.
func (p *progress) Finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
