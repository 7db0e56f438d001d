package query_test

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"solcat/query"
	"solcat/query/records"
)

// TestStreamPaused reads streams in pieces of a few rows (or, for long
// ones, in a few pieces), each piece
// resumed after the row the last one stopped at, and expects the bytes
// Stream writes in one go: for lists and classes, random filters, pages,
// every format, and each way a stream is answered (jumps, block scans,
// class scans, a class's members, the classes of a prefix, and the
// members of a puzzle stored as its classes).
func TestStreamPaused(t *testing.T) {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 4))
	questions := 40
	if testing.Short() {
		questions = 12
	}
	for _, name := range []string{"magic:3", "magic:4", "queens:8", "queens:10", "queens:12"} {
		tg := open(t, name)
		ways := map[string]int{}
		for i := range questions {
			f := randomFilter(r, tg.Puzzle, tg.Record.Classes)
			// First the filters each way needs: none (jumps), the first
			// cell (the classes of a prefix), a class (its members).
			if fixed := []query.Filter{{}, {Cells: []query.Cell{{Row: 1, Col: 1, Value: 1}}}, {Class: 1}}; i < len(fixed) {
				f = fixed[i]
			}
			ask := []query.Ask{query.AskList, query.AskClasses}[i%2]
			page := query.Window{Limit: -1}
			if i%5 == 4 {
				page = query.Window{Offset: int64(r.IntN(30)), Limit: int64(r.IntN(40))}
			}
			format := []records.Format{records.CSV, records.JSONL, records.Parquet}[i%3]
			plan, err := tg.Plan(ctx, query.Question{Ask: ask, Filter: f, Window: page})
			if err != nil {
				t.Fatal(err)
			}
			desc := fmt.Sprintf("%s %s ask %d %+v by %s", name, f.String(tg.Puzzle), ask, page, plan.Way)
			ways[fmt.Sprintf("%d %s", ask, plan.Way)]++
			d := records.Dataset{Puzzle: tg.Puzzle, Version: "test"}
			var whole bytes.Buffer
			want, err := records.Stream(ctx, tg, plan, &whole, format, true, d, nil)
			if err != nil {
				t.Fatalf("%s: %v", desc, err)
			}
			every := 1 + r.IntN(3) // rows a piece: a few, or a few pieces
			if want > 200 {
				every = int(want)/(2+r.IntN(20)) + r.IntN(3)
			}
			var out, piece bytes.Buffer
			written, flushes := 0, 0
			pause := query.Pause{
				Full: func() bool { written++; return written%every == 0 },
				Flush: func() error {
					flushes++
					out.Write(piece.Bytes())
					piece.Reset()
					return nil
				},
			}
			got, err := records.StreamPaused(ctx, tg, plan, &piece, format, true, d, pause)
			out.Write(piece.Bytes())
			if err != nil || got != want || !bytes.Equal(out.Bytes(), whole.Bytes()) {
				t.Errorf("%s, a piece every %d rows: %d rows, %v, %d bytes; want %d rows, %d bytes", desc, every, got, err, out.Len(), want, whole.Len())
			}
			if want >= int64(every) && flushes != int(want)/every {
				t.Errorf("%s: %d pieces flushed for %d rows, one every %d", desc, flushes, want, every)
			}
		}
		t.Logf("%s: %v", name, ways)
	}
}
