package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"solcat/query/keeper"
	"sort"
	"strings"
	"testing"
)

// TestFullDiskLeavesNothing: a constrained count, an estimate and stats
// that cannot keep what they worked out on a full disk answer, say so once,
// and leave nothing beside the catalog; every later command answers.
func TestFullDiskLeavesNothing(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root, to mount a small file system")
	}
	was := keeper.KeepAfter
	keeper.KeepAfter = 0 // keep every count, however quick
	t.Cleanup(func() { keeper.KeepAfter = was })
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here: %s", out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
	db := filepath.Join(dir, "q.db")
	if code, _, errOut := solcatDB(db, "build", "queens:12", "--count-only"); code != 0 {
		t.Fatalf("build: %s", errOut)
	}
	// Fill the disk: write until it refuses.
	fill, err := os.Create(filepath.Join(dir, "fill"))
	if err != nil {
		t.Fatal(err)
	}
	block := make([]byte, 4096)
	for {
		if _, err := fill.Write(block); err != nil {
			break
		}
	}
	fill.Close()

	steps := []struct {
		args []string
		out  string // a line of stdout
		note string // what stderr says
	}{
		{[]string{"count", "queens:12", "--cell", "1,1=1"}, "500", "the answer was not kept"},
		{[]string{"estimate", "queens:12", "--time", "200ms"}, "queens:12, estimated", "the estimate was not kept"},
		{[]string{"stats", "queens:12", "--by", "row:12"}, "1,165", "not kept"},
		{[]string{"info"}, "queens:12", ""},
		{[]string{"count", "queens:12"}, "14200", ""},
		{[]string{"verify", "queens:12"}, "ok", ""},
	}
	for _, s := range steps {
		code, out, errOut := solcatDB(db, s.args...)
		if code != 0 || !strings.Contains(out, s.out) {
			t.Errorf("%s: exit %d, stdout %q, want a line with %q (stderr %q)", strings.Join(s.args, " "), code, out, s.out, errOut)
		}
		switch {
		case s.note == "" && errOut != "":
			t.Errorf("%s: stderr %q, want none", strings.Join(s.args, " "), errOut)
		case s.note != "" && (!strings.Contains(errOut, s.note) || strings.Count(errOut, "\n") != 1):
			t.Errorf("%s: stderr %q, want one line saying %q", strings.Join(s.args, " "), errOut, s.note)
		}
		if files := folder(t, dir); strings.Join(files, " ") != "fill q.db" {
			t.Errorf("%s: the folder holds %v, want the catalog alone", strings.Join(s.args, " "), files)
		}
	}
}

// folder lists the names in dir, sorted.
func folder(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}
