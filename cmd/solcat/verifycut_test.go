package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifyCutCatalog: verify on a catalog file cut short, which SQLite
// cannot open, reports in every format which puzzles it lists can still be
// read and which cannot, and ends in one line, exit 1.
func TestVerifyCutCatalog(t *testing.T) {
	t.Parallel() // catalogs of its own (see TestMain)
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.db")
	if code, _, errOut := solcatDB(whole, "build", "queens:1-11", "magic:3"); code != 0 {
		t.Fatal(errOut)
	}
	data, err := os.ReadFile(whole)
	if err != nil {
		t.Fatal(err)
	}
	for _, keep := range []int{len(data) - 4096, len(data) * 2 / 3, len(data) / 3} {
		cut := filepath.Join(dir, "cut.db")
		if err := os.WriteFile(cut, data[:keep], 0o644); err != nil {
			t.Fatal(err)
		}
		for _, format := range []string{"text", "json", "jsonl", "csv"} {
			code, out, errOut := solcatDB(cut, "verify", "--format", format)
			if code != 1 || strings.Count(errOut, "\n") != 1 || !strings.Contains(errOut, "can be read page by page") || strings.Contains(errOut, "'solcat verify'") {
				t.Errorf("cut to %d bytes, %s: exit %d, stderr %q: want one line saying what can be read, exit 1", keep, format, code, errOut)
			}
			switch format {
			case "json":
				var report struct {
					Problems []string
					Puzzles  []struct {
						Puzzle string
						OK     bool
					}
				}
				if err := json.Unmarshal([]byte(out), &report); err != nil || len(report.Problems) == 0 || !strings.Contains(report.Problems[0], "cut short") {
					t.Errorf("cut to %d bytes: JSON report %v (%v):\n%s", keep, report, err, out)
				}
				if keep == len(data)-4096 && len(report.Puzzles) != 12 {
					t.Errorf("cut by one page: %d puzzles listed, want the 12 built", len(report.Puzzles))
				}
			case "text":
				if !strings.Contains(out, "catalog: the file is cut short") || !strings.Contains(out, "queens:1: ") {
					t.Errorf("cut to %d bytes: text report\n%s", keep, out)
				}
			}
		}
	}
}
