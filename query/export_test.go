package query

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"solcat/canon"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// Golden compares got with the file testdata/name, or with -update writes
// it there.
func Golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./query -run %s -update writes it)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("%s differs from %s (go test ./query -update rewrites it):\n%s", t.Name(), path, got)
	}
}

// SetSkipSpan makes deep pages skip classes n at a time, so that small
// catalogs take the path of the large ones; the returned func restores it.
func SetSkipSpan(n int64) (restore func()) {
	was := skipSpan
	skipSpan = n
	return func() { skipSpan = was }
}

// SetCores makes scans plan for n cores, so that plans read the same on
// every machine; the returned func restores it.
func SetCores(n int) (restore func()) {
	was := cores
	cores = func() int { return n }
	return func() { cores = was }
}

// SetPublished replaces the published counts board counts are checked
// against.
func SetPublished(f func(canon.Puzzle, canon.Property) (canon.Known, bool)) (restore func()) {
	was := knownWithProperty
	knownWithProperty = f
	return func() { knownWithProperty = was }
}
