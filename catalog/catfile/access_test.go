package catfile

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestByteLocks checks the protocol of access.go between descriptors of
// one file, as between processes: readers share the read byte, the writer
// waits for it, and a writer at the gate holds new readers back.
func TestByteLocks(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cat.db")
	os.WriteFile(file, nil, 0o644)
	open := func(write bool) *Locks {
		l, err := OpenLocks(file, write)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(l.Close)
		return l
	}
	writer, other := open(true), open(true)
	if _, err := writer.HeldByOther(ReadByte, false); err == ErrNoByteLocks {
		t.Skip("this file system takes no open file description locks")
	}
	// One writer.
	if ok, err := writer.Try(WriterByte, true); !ok || err != nil {
		t.Fatalf("the writer's byte: %v %v", ok, err)
	}
	if ok, _ := other.Try(WriterByte, true); ok {
		t.Error("a second writer took the writer's byte")
	}
	if !WriterAt(open(false)) {
		t.Error("a reader does not see the writer")
	}
	// Readers keep the writer from the file.
	r1 := &ReadLease{locks: open(false), file: file}
	r2 := &ReadLease{locks: open(false), file: file}
	ctx := context.Background()
	for _, r := range []*ReadLease{r1, r2} {
		if err := r.Acquire(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if ok, _ := writer.ExclusiveRead(300*time.Millisecond, nil); ok {
		t.Error("the writer took the read byte from two readers")
	}
	r1.Release()
	if ok, _ := writer.ExclusiveRead(300*time.Millisecond, nil); ok {
		t.Error("the writer took the read byte from one reader")
	}
	r2.Release()
	if ok, _ := writer.ExclusiveRead(300*time.Millisecond, nil); !ok {
		t.Fatal("the writer could not take the read byte from no reader")
	}
	// While the writer copies, a reader waits.
	done := make(chan error, 1)
	go func() { done <- r1.Acquire(ctx) }()
	select {
	case <-done:
		t.Fatal("a reader came in while the writer held the read byte")
	case <-time.After(100 * time.Millisecond):
	}
	writer.Unlock(ReadByte)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Second):
		t.Fatal("the reader still waits after the writer let go")
	}
	// A writer at the gate holds new connections back, even those of a
	// reader that holds the read byte already.
	if ok, _ := writer.Try(GateByte, true); !ok {
		t.Fatal("the gate")
	}
	go func() { done <- r2.Acquire(ctx) }()
	select {
	case <-done:
		t.Error("a new reader passed a held gate")
	case <-time.After(100 * time.Millisecond):
	}
	writer.Unlock(GateByte)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if r1.n != 1 || r2.n != 1 {
		t.Errorf("connections counted: %d and %d, want 1 and 1", r1.n, r2.n)
	}
}
