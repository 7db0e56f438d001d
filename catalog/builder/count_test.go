package builder

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/catfile"
)

// The tests build many puzzles in one process: collecting at 4x the live
// heap rather than 2x takes a tenth or more off their processor time.
func init() { debug.SetGCPercent(400) }

// TestCountRefusesOtherSplits saves units as another solcat's counter
// split the work (the halves counter of even n before it paired its
// column sets, 'H' units of one column set each; units of other sizes),
// counts again, and expects those units refused, not mixed in: a notice,
// and the counts right.
func TestCountRefusesOtherSplits(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		n      int
		prefix func(i int) []byte
	}{
		{"even n's halves units of one column set", 12, func(i int) []byte {
			key := []byte{'H', 12, 255}
			key = binary.BigEndian.AppendUint32(key, uint32(63+i))
			return binary.BigEndian.AppendUint32(key, 16)
		}},
		{"join units of another length", 13, func(i int) []byte {
			key := []byte{'J', 13, 0}
			key = binary.BigEndian.AppendUint32(key, uint32(63+i))
			return binary.BigEndian.AppendUint32(key, 3)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := canon.Puzzle{Kind: canon.Queens, N: tc.n}
			cat, err := catalog.Create(ctx, filepath.Join(t.TempDir(), "c.db"), catfile.Holder{})
			if err != nil {
				t.Fatal(err)
			}
			defer cat.Close()
			for i := range 3 {
				if err := cat.Work().SaveUnits(ctx, p.String(), []catalog.UnitCounts{{Unit: i, Prefix: tc.prefix(i), Joined: 1000, Nodes: 1}}); err != nil {
					t.Fatal(err)
				}
			}
			var notices strings.Builder
			res, err := (&Builder{Cat: cat}).Build(ctx, p, Options{CountOnly: true, Notices: &notices})
			known := map[int]int64{12: 14200, 13: 73712}
			if err != nil || res.Record.Solutions != known[tc.n] {
				t.Fatalf("count: %+v, %v", res.Record, err)
			}
			if want := fmt.Sprintf("%s: the 3 units saved were counted with another split of the work; counting again", p); !strings.Contains(notices.String(), want) {
				t.Errorf("notices %q, want %q", notices.String(), want)
			}
		})
	}
}

// stopAfter is a progress sink that cancels a build once done units are
// counted.
type stopAfter struct {
	done   int64
	cancel context.CancelFunc
}

func (s stopAfter) Update(done, total int64) {
	if done >= s.done {
		s.cancel()
	}
}
func (stopAfter) Finish() {}

// TestCountInterruptedKeepsFinishedUnits interrupts count-only builds of
// queens:13 and 14 after some units: every unit that finished is saved
// (they are committed in batches), the error says how many, and the count
// resumed from them is right.
func TestCountInterruptedKeepsFinishedUnits(t *testing.T) {
	for _, n := range []int{13, 14} {
		t.Run(fmt.Sprintf("queens:%d", n), func(t *testing.T) {
			p := canon.Puzzle{Kind: canon.Queens, N: n}
			cat, err := catalog.Create(context.Background(), filepath.Join(t.TempDir(), "c.db"), catfile.Holder{})
			if err != nil {
				t.Fatal(err)
			}
			defer cat.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			progress := func(label, unit string) Progress { return stopAfter{5, cancel} }
			_, err = (&Builder{Cat: cat}).Build(ctx, p, Options{CountOnly: true, Workers: 2, NewProgress: progress})
			var stopped *StoppedError
			if !errors.As(err, &stopped) || !errors.Is(err, ErrInterrupted) {
				t.Fatalf("an interrupted count: %v", err)
			}
			units, err := cat.Work().DoneUnits(context.Background(), p.String())
			if err != nil || int64(len(units)) != stopped.Done || stopped.Done < 5 || stopped.Done >= stopped.Total {
				t.Fatalf("%d units saved (%v), the error says %d of %d", len(units), err, stopped.Done, stopped.Total)
			}
			var notices strings.Builder
			res, err := (&Builder{Cat: cat}).Build(context.Background(), p, Options{CountOnly: true, Notices: &notices})
			known := map[int]int64{13: 73712, 14: 365596}
			if err != nil || res.Record.Solutions != known[n] || !strings.Contains(notices.String(), fmt.Sprintf("resuming, %d of", len(units))) {
				t.Errorf("resumed: %+v, %v, notices %q", res.Record, err, notices.String())
			}
		})
	}
}
