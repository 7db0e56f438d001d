package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"solcat/catalog"
)

var (
	binaryOnce sync.Once
	binaryPath string
	binaryErr  error
)

// binary builds solcat once, for tests that need a real process to limit
// or kill.
func binary(t *testing.T) string {
	t.Helper()
	binaryOnce.Do(func() {
		dir, err := os.MkdirTemp("", "solcat-bin-")
		if err != nil {
			binaryErr = err
			return
		}
		binaryPath = filepath.Join(dir, "solcat")
		out, err := exec.Command("go", "build", "-o", binaryPath, ".").CombinedOutput()
		if err != nil {
			binaryErr = err
			binaryPath = string(out)
		}
	})
	if binaryErr != nil {
		t.Fatalf("building solcat: %v %s", binaryErr, binaryPath)
	}
	return binaryPath
}

// TestFullDiskKeepsCatalog runs a build under a file size limit that it
// exceeds and checks that the catalog keeps its previous content.
func TestFullDiskKeepsCatalog(t *testing.T) {
	bin := binary(t)
	db := filepath.Join(t.TempDir(), "cat.db")
	if code, _, errOut := solcatDB(db, "build", "queens:1-10"); code != 0 {
		t.Fatal(errOut)
	}
	before := fileHash(t, db)
	cmd := exec.Command("sh", "-c", `ulimit -f 3000; exec "$0" --db "$1" build queens:14`, bin, db)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "queens:14 was not stored, the catalog keeps what it had") || strings.Count(string(out), "\n") != 1 {
		t.Fatalf("build over the size limit: %v, %q", err, out)
	}
	if fileHash(t, db) != before {
		t.Error("the catalog file changed")
	}
	if code, out, errOut := solcatDB(db, "verify"); code != 0 || strings.Contains(out, "queens:14") {
		t.Errorf("verify after the failed build: exit %d, %q %s", code, out, errOut)
	}
}

// TestCountOnlySurvivesKill kills a count-only build with SIGKILL once some
// units are saved, runs it again and expects it to resume and finish with
// the published numbers.
func TestCountOnlySurvivesKill(t *testing.T) {
	bin := binary(t)
	db := filepath.Join(t.TempDir(), "cat.db")
	cmd := exec.Command(bin, "--db", db, "build", "queens:16", "--count-only")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for saved := 0; saved < 50; {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no units saved within a minute")
		}
		time.Sleep(20 * time.Millisecond)
		if cat, err := catalog.Open(context.Background(), db); err == nil {
			units, _ := cat.DoneUnits(context.Background(), "queens:16")
			saved = len(units)
			cat.Close()
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	code, out, errOut := solcatDB(db, "build", "queens:16", "--count-only")
	if code != 0 || !strings.Contains(errOut, "resuming") || !strings.Contains(out, "14772512 solutions, 1846955 classes  matches OEIS") {
		t.Errorf("after SIGKILL: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
