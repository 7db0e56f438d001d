package main

import (
	"bytes"

	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestChangedUnderCommands changes the catalog file while a solcat process
// reads it, in each way another program might (cut short, written over in
// place by another catalog, renamed over), at a random moment of each
// reading command's run (once each; three times with SOLCAT_LONG=1), and
// checks that every run either gives the answer of the file it opened, or
// ends with one line on stderr and exit status 1: never a fault, a stack
// trace or another answer. Over all the runs, some must meet the change
// while reading (about a third do).
func TestChangedUnderCommands(t *testing.T) {
	t.Parallel() // processes and files of its own (see TestMain)
	bin := binary(t)
	runs := 1
	if longTests() {
		runs = 3
	}
	dir := t.TempDir()
	cleanPath, otherPath := filepath.Join(dir, "clean.db"), filepath.Join(dir, "other.db")
	for _, b := range []struct {
		path string
		args []string
	}{{cleanPath, []string{"build", "queens:13"}}, {otherPath, []string{"build", "queens:12"}}} {
		if out, err := exec.Command(bin, append([]string{"--db", b.path}, b.args...)...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v %s", b.args, err, out)
		}
	}
	clean, err := os.ReadFile(cleanPath)
	if err != nil {
		t.Fatal(err)
	}
	other, err := os.ReadFile(otherPath)
	if err != nil {
		t.Fatal(err)
	}
	commands := [][]string{
		{"count", "queens:13", "--cell", "7,7=1", "--classes"},
		{"list", "queens:13", "--cell", "7,8=1"},
		{"export", "queens:13", "--format", "csv"},
		{"stats", "queens:13", "--by", "row:7"},
		{"classes", "queens:13", "--cell", "9,9=1"},
		{"verify", "queens:13"},
	}
	changes := []struct {
		name string
		do   func(path string) error
	}{
		{"cut short", func(path string) error { return os.Truncate(path, int64(len(clean)/3)) }},
		{"written over", func(path string) error { return os.WriteFile(path, other, 0o644) }},
		{"renamed over", func(path string) error {
			if err := os.WriteFile(path+".new", other, 0o644); err != nil {
				return err
			}
			return os.Rename(path+".new", path)
		}},
	}
	rng := rand.New(rand.NewPCG(7, 8))
	met := 0
	for _, args := range commands {
		// The answer of the file as built, and how long a run takes.
		db := filepath.Join(dir, "cat.db")
		if err := os.WriteFile(db, clean, 0o644); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		want, err := exec.Command(bin, append([]string{"--db", db}, args...)...).Output()
		if err != nil {
			t.Fatalf("%v on the clean catalog: %v", args, err)
		}
		took := time.Since(start)
		for _, ch := range changes {
			for range runs {
				if err := os.WriteFile(db, clean, 0o644); err != nil {
					t.Fatal(err)
				}
				cmd := exec.Command(bin, append([]string{"--db", db}, args...)...)
				var stdout, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &stdout, &stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				time.Sleep(time.Duration(rng.Int64N(int64(took) + 1)))
				if err := ch.do(db); err != nil {
					t.Fatal(err)
				}
				err := cmd.Wait()
				code := cmd.ProcessState.ExitCode()
				errText := stderr.String()
				switch {
				case strings.Contains(errText, "goroutine ") || strings.Contains(errText, "fatal error") || strings.Contains(errText, "SIGBUS") || strings.Contains(errText, "panic"):
					t.Fatalf("%v, %s: a crash: %v\n%.2000s", args, ch.name, err, errText)
				case code == 0 && !bytes.Equal(stdout.Bytes(), want):
					t.Errorf("%v, %s: exit 0 with another answer (%d bytes, %d expected)", args, ch.name, stdout.Len(), len(want))
				case code == 0:
				case code != 1 || strings.Count(errText, "\n") != 1:
					t.Errorf("%v, %s: exit %d, stderr %q; want exit 1 and one line", args, ch.name, code, errText)
				case strings.Contains(errText, "changed while it was being read"):
					met++
				}
			}
		}
	}
	if met == 0 {
		t.Error("no run met the change while reading: the test did not test it")
	}
	t.Logf("%d runs met the change while reading", met)
}

// TestChangedUnderServer cuts short and restores the catalog file while
// 'solcat serve' answers scan pages from it: every answer is a page (a
// 200, or an error page that names the problem), the server never
// crashes, and once the file is whole again its pages answer as before.
func TestChangedUnderServer(t *testing.T) {
	t.Parallel() // processes and files of its own (see TestMain)
	bin := binary(t)
	db := filepath.Join(t.TempDir(), "cat.db")
	if out, err := exec.Command(bin, "--db", db, "build", "queens:13").CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	clean, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	srv := exec.Command(bin, "--db", db, "serve", "--addr", addr)
	srvErr := &lockedBuffer{} // read while the server may still write
	srv.Stderr = srvErr
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{}) // closed when the server's process ends
	go func() {
		srv.Wait()
		close(ended)
	}()
	defer srv.Process.Kill()
	url := "http://" + addr + "/puzzle/queens:13?cell=7,7=1"
	get := func() (int, string) {
		resp, err := http.Get(url)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		var body bytes.Buffer
		body.ReadFrom(resp.Body)
		return resp.StatusCode, body.String()
	}
	for i := 0; ; i++ {
		if code, _ := get(); code == http.StatusOK {
			break
		}
		if i > 100 {
			t.Fatalf("the server did not start: %s", srvErr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	_, wantBody := get()
	if !strings.Contains(wantBody, "queens:13") {
		t.Fatalf("the page: %.300s", wantBody)
	}
	for i := range 20 {
		if i%2 == 0 {
			os.Truncate(db, int64(len(clean)/3))
		} else {
			os.WriteFile(db, clean, 0o644)
		}
		for range 3 {
			code, body := get()
			if code == 0 || code != http.StatusOK && !strings.Contains(body, "solcat") {
				t.Fatalf("change %d: status %d, %.300s (server: %s)", i, code, body, srvErr.String())
			}
		}
	}
	if err := os.WriteFile(db, clean, 0o644); err != nil {
		t.Fatal(err)
	}
	code, body := get()
	if code != http.StatusOK || len(body) < len(wantBody)-100 || !strings.Contains(body, "queens:13") {
		t.Errorf("with the file whole again: status %d, %d bytes (%d before)", code, len(body), len(wantBody))
	}
	if s := srvErr.String(); strings.Contains(s, "goroutine ") || strings.Contains(s, "fatal error") {
		t.Errorf("the server crashed or logged a trace: %.2000s", s)
	}
	select {
	case <-ended:
		t.Errorf("the server ended: %v", srv.ProcessState)
	default:
	}
}

// lockedBuffer holds what a process writes while the test reads it: os/exec
// copies the process's output into it from a goroutine of its own.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
