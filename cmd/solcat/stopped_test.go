package main

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"solcat/canon"
	"solcat/catalog"
)

// TestBuildStoppedNamesTheCause checks the message of a stored build that
// stopped: a full disk or a bug is named even if an interrupt came at the
// same time; otherwise an interrupt says so.
func TestBuildStoppedNamesTheCause(t *testing.T) {
	p := canon.Puzzle{Kind: canon.Queens, N: 6}
	for _, tc := range []struct {
		name        string
		err         error
		interrupted bool
		want        string
	}{
		{"disk full", errors.New("database or disk is full (13)"), false, "free disk space"},
		{"disk full while interrupted", errors.New("database or disk is full (13)"), true, "free disk space"},
		{"bug while interrupted", errors.New("queens:6: 3 written (this is a bug, please report it)"), true, "this is a bug"},
		{"interrupted", errors.New("sql: statement is closed"), true, "interrupted: "},
		{"other", errors.New("no such table"), false, "once the cause is fixed"},
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
			got := buildStopped(&env{ctx: ctx}, p, w, tc.err, "rows").Error()
			if !strings.Contains(got, tc.want) || strings.Contains(got, "\n") {
				t.Errorf("%s: %q, want one line with %q", tc.name, got, tc.want)
			}
		})
	}
}
