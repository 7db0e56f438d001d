package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServe starts 'solcat serve' on a free port of the loopback, reads the
// address it prints, asks a page and its JSON, and stops it with Ctrl-C:
// it exits 0 and leaves the catalog as it was, with no files beside it.
func TestServe(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "solcat.db")
	data, err := os.ReadFile(catalogPath)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(db, data, 0o644)
	before := folderState(t, dir)
	cmd := exec.Command(bin, "--db", db, "serve", "--addr", "127.0.0.1:0")
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("no address printed: %v %s", err, stderr.String())
	}
	i := strings.Index(line, "http://")
	if i < 0 {
		t.Fatalf("no address in %q", line)
	}
	base := strings.TrimSuffix(strings.Fields(line[i:])[0], "/")
	resp, err := http.Get(base + "/puzzle/queens:8.json?q1=1")
	if err != nil {
		t.Fatal(err)
	}
	var page struct{ Count int64 }
	json.NewDecoder(resp.Body).Decode(&page)
	resp.Body.Close()
	if resp.StatusCode != 200 || page.Count != 4 {
		t.Errorf("queens:8 with a queen at 1,1: %d, count %d", resp.StatusCode, page.Count)
	}
	resp, err = http.Get(base + "/puzzle/queens:8")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "<strong>92</strong> matching solutions") {
		t.Errorf("the queens:8 page: %.500s", body)
	}
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("after Ctrl-C: %v %s", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Ctrl-C did not stop the server within 10 s")
	}
	after := folderState(t, dir)
	if len(after) != len(before) || after["solcat.db"] != before["solcat.db"] {
		t.Errorf("serving changed the folder: %v, was %v", after, before)
	}
}
