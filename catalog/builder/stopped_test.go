package builder

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/catfile"
)

// TestStoppedNamesTheCause checks how a stored build that stopped says
// why: a full disk, an I/O error or a bug is named even if an interrupt
// came at the same time; otherwise an interrupt says so; always with what
// is saved. The disk's faults are told by SQLite's result codes and the
// system's error numbers, never by the words of a message.
func TestStoppedNamesTheCause(t *testing.T) {
	p := canon.Puzzle{Kind: canon.Queens, N: 6}
	full := sqliteFull(t)
	for _, tc := range []struct {
		name        string
		err         error
		interrupted bool
		is          error
		want        string
	}{
		{"disk full", full, false, ErrDiskFull, "the disk is full (database or disk is full (13))"},
		{"disk full, wrapped", fmt.Errorf("writing a unit: %w", full), false, ErrDiskFull, "the disk is full (writing a unit: database or disk is full (13))"},
		{"disk full while interrupted", full, true, ErrDiskFull, "the disk is full"},
		{"no space", &fs.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}, false, ErrDiskFull, "the disk is full (write x: no space left on device)"},
		{"file too large", &fs.PathError{Op: "write", Path: "x", Err: syscall.EFBIG}, false, ErrDiskFull, "the disk is full (write x: file too large)"},
		{"I/O error", &fs.PathError{Op: "read", Path: "x", Err: syscall.EIO}, false, catfile.ErrIO, "the disk reported an input/output error (read x: input/output error)"},
		{"I/O error while interrupted", &fs.PathError{Op: "read", Path: "x", Err: syscall.EIO}, true, catfile.ErrIO, "input/output error"},
		{"the words alone", errors.New("database or disk is full (13)"), false, nil, "queens:6: database or disk is full (13); 0%"},
		{"bug while interrupted", fmt.Errorf("%w: 3 written", ErrBug), true, ErrBug, "this is a bug: 3 written"},
		{"interrupted", errors.New("sql: statement is closed"), true, ErrInterrupted, "interrupted: "},
		{"other", errors.New("no such table"), false, nil, "no such table"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cat, err := catalog.Create(context.Background(), filepath.Join(t.TempDir(), "c.db"), catfile.Holder{})
			if err != nil {
				t.Fatal(err)
			}
			defer cat.Close()
			w, err := cat.BeginSolutions(context.Background(), p, catalog.BuildPlan{Layout: catalog.Layout{Solver: "test"}, UnitRows: 10, RowsTotal: 5}, 1)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			if tc.interrupted {
				cancel()
			}
			defer cancel()
			err = stoppedStored(ctx, p, w, tc.err, 1, 4)
			var s *StoppedError
			if !errors.As(err, &s) || s.Total != 4 || s.What != "solutions" {
				t.Fatalf("%v is no StoppedError of 4 solutions", err)
			}
			if tc.is != nil && !errors.Is(err, tc.is) {
				t.Errorf("%v is not %v", err, tc.is)
			}
			if tc.is == nil && (errors.Is(err, ErrDiskFull) || errors.Is(err, catfile.ErrIO) || errors.Is(err, ErrInterrupted)) {
				t.Errorf("%v names a cause it does not have", err)
			}
			if got := err.Error(); !strings.Contains(got, tc.want) || !strings.Contains(got, "0% of queens:6 is saved (0 of 4 solutions)") || strings.Contains(got, "\n") {
				t.Errorf("%q, want one line with %q and what is saved", got, tc.want)
			}
		})
	}
}

// TestStoppedCountsSolutions interrupts stored builds of queens:14 in
// each phase and checks what the error says is saved: solutions, as users
// count them, with thousands separators, or while the search still
// writes classes, the classes; and that it is what the catalog saved.
func TestStoppedCountsSolutions(t *testing.T) {
	p := canon.Puzzle{Kind: canon.Queens, N: 14}
	for _, tc := range []struct {
		name, bar string // the bar whose count stops the build
		at        int64
		what      string
		total     string
	}{
		{"search", "queens:14 search", 20000, "classes", "45,752"},
		{"writing", "queens:14", 131072, "solutions", "365,596"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "c.db")
			cat, err := catalog.Create(context.Background(), path, catfile.Holder{})
			if err != nil {
				t.Fatal(err)
			}
			defer cat.Close()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			progress := func(label, unit string) Progress {
				if label == tc.bar {
					return stopAfter{tc.at, cancel}
				}
				return noProgress{}
			}
			_, err = (&Builder{Cat: cat}).Build(ctx, p, Options{Workers: 2, NewProgress: progress})
			var s *StoppedError
			if !errors.As(err, &s) || !errors.Is(err, ErrInterrupted) {
				t.Fatalf("an interrupted build: %v", err)
			}
			builds, berr := cat.Work().Builds(context.Background())
			if berr != nil || len(builds) != 1 {
				t.Fatalf("%d unfinished builds, %v", len(builds), berr)
			}
			saved := builds[0].SolutionsDone
			if tc.what == "classes" {
				saved = builds[0].ClassesDone
			}
			want := fmt.Sprintf("interrupted: %d%% of queens:14 is saved (%s of %s %s)", 100*saved/s.Total, canon.Thousands(saved), tc.total, tc.what)
			if s.What != tc.what || s.Done != saved || saved == 0 || err.Error() != want {
				t.Errorf("%q (%d of %d %s); want %q", err, s.Done, s.Total, s.What, want)
			}
			// Status (info, the web, a query's refusal) counts as the error does.
			u, ok, err := Status(context.Background(), cat, path, p)
			if err != nil || !ok || u.Done != s.Done || u.Total != s.Total || u.What != tc.what || u.Percent != int(100*saved/s.Total) ||
				canon.Thousands(u.Total) != tc.total {
				t.Errorf("status %d of %d %s, %d%%, %v, %v; want %d of %s %s", u.Done, u.Total, u.What, u.Percent, ok, err, saved, tc.total, tc.what)
			}
			// The resumed build counts what it finds saved the same way.
			var notices strings.Builder
			res, err := (&Builder{Cat: cat}).Build(context.Background(), p, Options{Workers: 2, Notices: &notices})
			notice := "queens:14: resuming from " + strings.TrimPrefix(want, "interrupted: ")
			notice = strings.Replace(notice, " of queens:14 is saved (", " saved by an earlier run (", 1) + "\n"
			if err != nil || res.Record.Solutions != 365596 || notices.String() != notice {
				t.Errorf("resumed: %d solutions, %v, notices %q; want %q", res.Record.Solutions, err, notices.String(), notice)
			}
		})
	}
}

// sqliteFull returns the error SQLite gives when its file can grow no
// more: SQLITE_FULL, from a database limited to a few pages.
func sqliteFull(t *testing.T) error {
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "small.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = db.Exec("PRAGMA max_page_count = 3; CREATE TABLE t (x); INSERT INTO t VALUES (randomblob(100000))")
	var se *sqlite.Error
	if !errors.As(err, &se) || se.Code() != sqlite3.SQLITE_FULL {
		t.Fatalf("a database of 3 pages takes 100 kB: %v", err)
	}
	return err
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
		cat, err := catalog.Create(context.Background(), path, catfile.Holder{})
		if err != nil {
			t.Fatal(err)
		}
		layout := storedSplitLayout(p)
		layout.Shard, layout.Of = tc.shard.I, tc.shard.Of
		w, err := cat.BeginSolutions(context.Background(), p, catalog.BuildPlan{Layout: layout, UnitRows: 10, RowsTotal: 5}, 1)
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
