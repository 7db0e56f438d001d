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
		os.Chmod(dir, 0o755) // other users run it in TestReadOnlyFolder
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

// TestReadOnlyFolder queries a catalog in a folder the user may not write to
// (as another user when the tests run as root, who ignores permissions), and
// expects a clear refusal, not a crash or a partial file, when asked to build.
func TestReadOnlyFolder(t *testing.T) {
	bin := binary(t)
	base := t.TempDir()
	dir := filepath.Join(base, "readonly")
	os.Mkdir(dir, 0o755)
	data, _ := os.ReadFile(catalogPath)
	db := filepath.Join(dir, "cat.db")
	os.WriteFile(db, data, 0o644)
	os.Chmod(filepath.Dir(base), 0o755) // the test's own temporary folders are private
	os.Chmod(base, 0o755)
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	run := func(args ...string) (string, error) {
		args = append([]string{"--db", db}, args...)
		cmd := exec.Command(bin, args...)
		if os.Geteuid() == 0 {
			// Root may write anywhere: run as the unprivileged user nobody.
			cmd = exec.Command("setpriv", append([]string{"--reuid=65534", "--regid=65534", "--clear-groups", bin}, args...)...)
		}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	before := fileHash(t, db)
	if out, err := run("count", "queens:8"); err != nil || out != "92\n" {
		t.Errorf("count in a read-only folder: %v, %q", err, out)
	}
	if out, err := run("verify", "queens:8"); err != nil || !strings.Contains(out, "queens:8: ok") {
		t.Errorf("verify in a read-only folder: %v, %q", err, out)
	}
	out, err := run("build", "queens:9", "--force")
	if err == nil || !strings.Contains(out, "is not writable") || strings.Count(out, "\n") != 1 {
		t.Errorf("build in a read-only folder: %v, %q", err, out)
	}
	if fileHash(t, db) != before {
		t.Error("the catalog changed")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the folder now holds %d files, want 1", len(entries))
	}
}
