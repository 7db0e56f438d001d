package check

import (
	"bytes"
	"context"
	"io"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"solcat/canon"
	"solcat/query/records"
)

// repeated is an input of the same text over and over, size bytes in all,
// made as it is read.
type repeated struct {
	text []byte
	left int
	at   int
}

func (r *repeated) Read(p []byte) (int, error) {
	if r.left == 0 {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && r.left > 0 {
		c := copy(p[n:min(len(p), n+r.left)], r.text[r.at:])
		r.at, n, r.left = (r.at+c)%len(r.text), n+c, r.left-c
	}
	return n, nil
}

// TestCheckMemoryBounded: check reads its input as a stream; its heap
// stays far under the input's size.
func TestCheckMemoryBounded(t *testing.T) {
	const size = 4 << 20
	lines := "1 5 8 6 3 7 2 4\n1 6 8 3 7 4 2 5\n" // 32 bytes: size/32 entries
	var peak atomic.Uint64
	done := make(chan struct{})
	go func() {
		var m runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
		}
	}()
	runtime.GC()
	var out countingWriter
	err := Do(context.Background(), &repeated{text: []byte(lines), left: size}, Hint{canon.Queens, 8}, noCatalog, Output{W: &out, Format: records.JSONL, Headers: true})
	close(done)
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(size / 16); out.lines != want {
		t.Errorf("%d records, want %d", out.lines, want)
	}
	if p := peak.Load(); p > 40<<20 {
		t.Errorf("heap at %d MiB for an input of %d MiB", p>>20, size>>20)
	}
}

// noCatalog is an Opener with no catalog to open.
func noCatalog(p canon.Puzzle) (Store, error) { return Stored(context.Background(), nil, "none.db", p) }

type countingWriter struct{ lines int64 }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.lines += int64(bytes.Count(p, []byte("\n")))
	return len(p), nil
}

// TestCheckLongLines: a line past MaxLine is refused with its number; a
// long entry is echoed by its first maxEcho characters.
func TestCheckLongLines(t *testing.T) {
	long := strings.Repeat("1 ", MaxLine)
	for _, input := range []string{"2 4 1 3\n" + long + "\n", "row1,row2\n" + long + "\n"} {
		_, err := Parse([]byte(input), Hint{})
		if err == nil || !strings.Contains(err.Error(), "line 2: a line longer than 64 KiB") {
			t.Errorf("error %v, want line 2 refused as too long", err)
		}
	}
	var out bytes.Buffer
	err := Do(context.Background(), strings.NewReader(strings.Repeat("3 ", 500)+"\n"), Hint{canon.Queens, 4}, noCatalog, Output{W: &out, Format: records.Text})
	if err == nil {
		t.Fatal("a wrong answer passed")
	}
	line, _, _ := strings.Cut(out.String(), "\n")
	if echo, _, _ := strings.Cut(strings.TrimPrefix(line, "line 1: "), ":"); len(echo) != maxEcho+3 || !strings.HasSuffix(echo, "...") {
		t.Errorf("echo %q (%d characters), want the first %d and ...", echo, len(echo), maxEcho)
	}
}
