package builder

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"solcat/canon"
	"solcat/catalog"
)

// TestStoppedNamesTheCause checks how a stored build that stopped says
// why: a full disk or a bug is named even if an interrupt came at the same
// time; otherwise an interrupt says so; always with what is saved.
func TestStoppedNamesTheCause(t *testing.T) {
	p := canon.Puzzle{Kind: canon.Queens, N: 6}
	for _, tc := range []struct {
		name        string
		err         error
		interrupted bool
		is          error
		want        string
	}{
		{"disk full", errors.New("database or disk is full (13)"), false, ErrDiskFull, "the disk is full"},
		{"disk full while interrupted", errors.New("database or disk is full (13)"), true, ErrDiskFull, "the disk is full"},
		{"I/O error", errors.New("disk I/O error (778)"), false, ErrDiskFull, "the disk is full"},
		{"bug while interrupted", fmt.Errorf("%w: 3 written", ErrBug), true, ErrBug, "this is a bug: 3 written"},
		{"interrupted", errors.New("sql: statement is closed"), true, ErrInterrupted, "interrupted: "},
		{"other", errors.New("no such table"), false, nil, "no such table"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat, err := catalog.Create(context.Background(), filepath.Join(t.TempDir(), "c.db"), catalog.Holder{})
			if err != nil {
				t.Fatal(err)
			}
			defer cat.Close()
			w, err := cat.Begin(context.Background(), p.String(), catalog.BuildPlan{Layout: "test", UnitRows: 10, RowsTotal: 5, CellBytes: p.Len(), Classes: 1}, 0)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			if tc.interrupted {
				cancel()
			}
			defer cancel()
			err = stopped(ctx, p, w, tc.err, "rows")
			var s *StoppedError
			if !errors.As(err, &s) || s.Total != 5 || s.What != "rows" {
				t.Fatalf("%v is no StoppedError of 5 rows", err)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("%v is not %v", err, tc.is)
			}
			if got := err.Error(); !strings.Contains(got, tc.want) || !strings.Contains(got, "0% of queens:6 is saved (0 of 5 rows)") || strings.Contains(got, "\n") {
				t.Errorf("%q, want one line with %q and what is saved", got, tc.want)
			}
		})
	}
}

// TestUnfinishedShardResumesAsShard checks that a stopped stored shard
// build knows its shard, and a whole build has none (cmd/solcat/advice
// words the command that resumes each).
func TestUnfinishedShardResumesAsShard(t *testing.T) {
	p := canon.Puzzle{Kind: canon.Queens, N: 14}
	for _, tc := range []struct {
		shard Shard
	}{
		{Shard{}},
		{Shard{2, 3}},
	} {
		path := filepath.Join(t.TempDir(), "c.db")
		cat, err := catalog.Create(context.Background(), path, catalog.Holder{})
		if err != nil {
			t.Fatal(err)
		}
		layout := storedSplitLayout(p) + catalog.Layout(tc.shard.label())
		w, err := cat.Begin(context.Background(), p.String(), catalog.BuildPlan{Layout: layout, UnitRows: 10, RowsTotal: 5, CellBytes: p.Len(), Classes: 1}, 0)
		if err != nil {
			t.Fatal(err)
		}
		w.Rollback()
		u, ok, err := Status(context.Background(), cat, path, p)
		cat.Close()
		if err != nil || !ok || u.Shard != tc.shard {
			t.Fatalf("status: %+v, %v, %v; want shard %v", u, ok, err, tc.shard)
		}
	}
}
