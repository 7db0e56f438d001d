package console

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestProgressTimeLeft holds that the time left follows the recent rate:
// a build whose first units are slow (as queens:16's are) is not promised
// minutes when it has seconds to go, and a resumed build's saved part is
// not counted as work of this run.
func TestProgressTimeLeft(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps [][2]int64 // seconds since start, done
		total int64
		want  string // the time left after the last step
	}{
		// 1% a second for 10 s, then 10% a second: 4 s left at 60%, not 40 s.
		{"slow start", [][2]int64{{0, 0}, {2, 2}, {4, 4}, {6, 6}, {8, 8}, {10, 10}, {11, 20}, {12, 30}, {13, 40}, {14, 50}, {15, 60}}, 100, "4s left"},
		{"steady", [][2]int64{{0, 0}, {2, 10}, {4, 20}, {6, 30}, {8, 40}}, 100, "12s left"},
		// 60 of 100 saved by an earlier run; 10 a second since.
		{"resumed", [][2]int64{{0, 60}, {1, 70}, {2, 80}}, 100, "2s left"},
		{"no rate yet", [][2]int64{{0, 0}}, 100, "? left"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			var now time.Time
			p := &Progress{out: &out, label: "queens:16", unit: "solutions", start: t0, tty: true, now: func() time.Time { return now }}
			var last int64
			for _, s := range tc.steps {
				now = t0.Add(time.Duration(s[0]) * time.Second)
				p.Update(s[1], tc.total)
				last = s[1]
			}
			got := p.describe(last, tc.total)
			if !strings.HasSuffix(got, ", "+tc.want) {
				t.Errorf("%q, want it to end in %q", got, tc.want)
			}
		})
	}
}

// TestProgressLine holds what a bar writes on a terminal: counts with
// thousands separators, no line padded with spaces, and a Finish that
// erases the line and leaves the cursor at its beginning.
func TestProgressLine(t *testing.T) {
	var out bytes.Buffer
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := t0
	p := &Progress{out: &out, label: "queens:16", unit: "solutions", start: t0, tty: true, now: func() time.Time { return now }}
	for i := int64(0); i <= 10; i++ {
		now = t0.Add(time.Duration(i) * time.Second)
		p.Update(i*1_000_000, 14_772_512)
	}
	if got, want := p.describe(10_000_000, 14_772_512), "queens:16: 10,000,000 of 14,772,512 solutions, 1,000,000 solutions/s, 5s left"; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	p.Finish()
	text := out.String()
	if !strings.Contains(text, "queens:16: ") {
		t.Errorf("no bar drawn: %q", text)
	}
	if !strings.HasSuffix(text, "\x1b[2K\r") {
		t.Errorf("does not end by erasing the line: %q", text[max(0, len(text)-40):])
	}
	if m := regexp.MustCompile(`  +(\r|\x1b|$)`).FindString(text); m != "" {
		t.Errorf("a line padded with spaces: %q in\n%q", m, text)
	}
}
