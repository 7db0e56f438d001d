package web

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"solcat/catalog"
)

// testRequest is a request inside the gate of a server of its own.
func testRequest(ctx context.Context) *request {
	s := &Server{gate: newGate(4), timeout: time.Second}
	r := &request{ctx: ctx, limit: time.Second, s: s}
	r.enter(lists)
	return r
}

// TestAnswersKept: an answer is worked out once for every request that
// asks while it is being worked out, and kept for those that come after;
// the least recently used go beyond the bound; a request whose wait ends
// in another's failure works the answer out itself.
func TestAnswersKept(t *testing.T) {
	t.Run("once for a burst", func(t *testing.T) {
		a := newAnswers(8)
		var computed atomic.Int64
		release := make(chan struct{})
		var wg sync.WaitGroup
		got := make([]any, 100)
		for i := range got {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := testRequest(context.Background())
				defer r.leave()
				v, err := a.do(r, "k", func() (any, error) {
					computed.Add(1)
					<-release
					return 42, nil
				})
				if err != nil {
					t.Error(err)
				}
				got[i] = v
			}()
		}
		time.Sleep(50 * time.Millisecond) // let them all come while the first works
		close(release)
		wg.Wait()
		if n := computed.Load(); n != 1 {
			t.Errorf("worked out %d times for 100 requests", n)
		}
		for i, v := range got {
			if v != 42 {
				t.Fatalf("request %d got %v", i, v)
			}
		}
		if v, ok := a.lookup("k"); !ok || v != 42 {
			t.Errorf("not kept: %v %v", v, ok)
		}
	})
	t.Run("bounded", func(t *testing.T) {
		a := newAnswers(3)
		r := testRequest(context.Background())
		for i := range 5 {
			a.do(r, fmt.Sprint(i), func() (any, error) { return i, nil })
			a.lookup("0") // the first stays: recently used
		}
		for key, want := range map[string]bool{"0": true, "1": false, "2": false, "3": true, "4": true} {
			if _, ok := a.lookup(key); ok != want {
				t.Errorf("%s kept: %v, want %v", key, ok, want)
			}
		}
	})
	t.Run("after a failure", func(t *testing.T) {
		a := newAnswers(3)
		started := make(chan struct{})
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.do(testRequest(context.Background()), "k", func() (any, error) {
				close(started)
				time.Sleep(50 * time.Millisecond)
				return nil, errors.New("its client left")
			})
		}()
		<-started
		v, err := a.do(testRequest(context.Background()), "k", func() (any, error) { return 7, nil })
		wg.Wait()
		if err != nil || v != 7 {
			t.Errorf("%v, %v; want 7", v, err)
		}
		if _, ok := a.lookup("k"); !ok {
			t.Error("the answer worked out after the failure is not kept")
		}
	})
	t.Run("waiting past the time limit", func(t *testing.T) {
		a := newAnswers(3)
		hold := make(chan struct{})
		defer close(hold)
		go a.do(testRequest(context.Background()), "k", func() (any, error) { <-hold; return 1, nil })
		time.Sleep(10 * time.Millisecond)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		if _, err := a.do(testRequest(ctx), "k", func() (any, error) { return 2, nil }); err == nil {
			t.Error("no error when the time limit ran out while waiting")
		}
	})
}

// TestAnswerKeyFollowsContent: a puzzle rebuilt (another content hash or
// build time) asks its questions anew.
func TestAnswerKeyFollowsContent(t *testing.T) {
	rec := catalog.Record{Name: "queens:8", ContentHash: "abc", BuiltAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Solutions: 92}
	key := answerKey(rec, "heatmap", "cell 1,1=1")
	rebuilt, rehashed := rec, rec
	rebuilt.BuiltAt = time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	rehashed.ContentHash = "abd"
	for name, other := range map[string]string{
		"rebuilt":        answerKey(rebuilt, "heatmap", "cell 1,1=1"),
		"another hash":   answerKey(rehashed, "heatmap", "cell 1,1=1"),
		"another filter": answerKey(rec, "heatmap", "cell 1,1=0"),
		"another page":   answerKey(rec, "stats", "cell 1,1=1"),
	} {
		if other == key {
			t.Errorf("%s: the same key %q", name, key)
		}
	}
	if again := answerKey(rec, "heatmap", "cell 1,1=1"); again != key {
		t.Errorf("the same question, another key: %q, %q", key, again)
	}
}
