package console

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Progress draws a bar on stderr for builds and exports that last over
// about a second, and only when stderr is a terminal, so logs and pipes
// stay clean. It shows how much is done of how much, the recent rate and
// the time left at that rate; a resumed build's bar starts at the saved
// part, which does not count towards the rate. Finish clears it with the
// terminal's erase-line code (no run of spaces left behind), so the line
// that follows starts clean at the beginning of a line.
type Progress struct {
	out   io.Writer
	label string
	unit  string
	start time.Time
	bar   *progressbar.ProgressBar
	tty   bool
	now   func() time.Time
	rate  rateWindow
	shown time.Time
}

func NewProgress(out io.Writer, label, unit string) *Progress {
	return &Progress{out: out, label: label, unit: unit, start: time.Now(), tty: IsTerminal(out), now: time.Now}
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
	now := p.now()
	p.rate.add(now, done)
	if p.bar == nil {
		if now.Sub(p.start) < time.Second {
			return
		}
		p.bar = progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(p.out),
			progressbar.OptionSetDescription(p.label),
			progressbar.OptionSetElapsedTime(false),
			progressbar.OptionSetPredictTime(false),
			progressbar.OptionShowDescriptionAtLineEnd(),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionUseANSICodes(true),
		)
	}
	if now.Sub(p.shown) > 200*time.Millisecond {
		p.shown = now
		p.bar.Describe(p.describe(done, total))
	}
	p.bar.Set64(done)
}

// describe says how far the work is, its recent rate and the time left.
func (p *Progress) describe(done, total int64) string {
	rate := p.rate.perSecond()
	left := "?"
	if rate > 0 {
		left = time.Duration(float64(total-done) / rate * float64(time.Second)).Round(time.Second).String()
	}
	return fmt.Sprintf("%s: %s of %s %s, %s %s/s, %s left", p.label, humanize.Comma(done), humanize.Comma(total), p.unit, humanize.Comma(int64(math.Round(rate))), p.unit, left)
}

// Finish clears the bar, and leaves the cursor at the beginning of the
// cleared line.
func (p *Progress) Finish() {
	if p.bar != nil {
		p.bar.Exit()
		p.bar.Clear()
		p.bar = nil
	}
}

// rateWindow keeps the last few seconds of progress, so that the time left
// follows the recent rate: the work units of a search are not alike (a
// queens build's first units are its slowest), and the rate since the
// start would promise minutes at 7% of a build done in 20 seconds.
type rateWindow struct {
	at   []time.Time
	done []int64
}

// rateSpan is how far back the rate looks.
const rateSpan = 5 * time.Second

func (w *rateWindow) add(at time.Time, done int64) {
	w.at, w.done = append(w.at, at), append(w.done, done)
	// Keep one sample older than the span, so the span is always covered.
	drop := 0
	for drop+1 < len(w.at) && at.Sub(w.at[drop+1]) >= rateSpan {
		drop++
	}
	w.at, w.done = w.at[drop:], w.done[drop:]
}

// perSecond is the rate over the window: 0 until there are two samples
// apart in time. The first sample is what was there before (a resumed
// build's saved part), never counted as work of this run.
func (w *rateWindow) perSecond() float64 {
	if len(w.at) < 2 {
		return 0
	}
	last := len(w.at) - 1
	secs := w.at[last].Sub(w.at[0]).Seconds()
	if secs <= 0 {
		return 0
	}
	return float64(w.done[last]-w.done[0]) / secs
}

// Hide keeps the bar from being drawn: for an output that goes to the
// terminal the bar would be drawn over.
func (p *Progress) Hide() { p.tty = false }

// Interrupted starts a new line on a terminal, once ctx has ended (Ctrl-C,
// SIGTERM), before the line that says how the command stopped: the
// terminal echoed ^C where the cursor stood, and the message must not run
// on from it.
func Interrupted(ctx context.Context, w io.Writer) {
	if ctx.Err() != nil && IsTerminal(w) {
		io.WriteString(w, "\n")
	}
}

// UnitsBar is a count's progress bar, in units, on w: it finishes when
// every unit is counted.
func UnitsBar(w io.Writer) func(done, total int) {
	bar := NewProgress(w, "counting", "units")
	return func(done, total int) {
		if bar.Update(int64(done), int64(total)); done == total {
			bar.Finish()
		}
	}
}
