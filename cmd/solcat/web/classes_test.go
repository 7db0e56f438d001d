package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/catalog/catfile"
	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/web"
)

// TestClassesOnlyPages serves queens:10 stored solution by solution and as
// its classes only (the layout of queens:18 and 19), and expects every kind
// of page to give the same answers as JSON; only the members' IDs differ
// (numbered class by class in the classes-only layout, so pages of the
// listing that stop short of its end differ too), and how the pages were
// answered.
func TestClassesOnlyPages(t *testing.T) {
	ctx := context.Background()
	p := canon.Puzzle{Kind: canon.Queens, N: 10}
	var urls [2]string
	for i, asClasses := range []bool{false, true} {
		db := filepath.Join(t.TempDir(), "cat.db")
		cat, err := catalog.Create(ctx, db, catfile.Holder{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := (&builder.Builder{Cat: cat}).Build(ctx, p, builder.Options{Workers: 2, AsClasses: asClasses}); err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(web.New(cat, db, web.Options{Timeout: 10 * time.Second, Concurrent: 4, Version: "test", ScanRows: 50, Builds: advice.Builds{Cat: cat, Path: db}}))
		t.Cleanup(func() { srv.Close(); cat.Close() })
		urls[i] = srv.URL
	}
	// A page whose count reads only the few classes with fewer than 8
	// members counts at once; one that reads all 92 waits to be asked.
	if status, body := get(t, urls[1]+"/puzzle/queens:10?orbit=4&q2=3", ""); status != 200 || strings.Contains(body, "count them") || !strings.Contains(body, `<p class="count"`) {
		t.Errorf("orbit 4 as classes: %d %.600s", status, body)
	}
	if status, body := get(t, urls[1]+"/puzzle/queens:10?q2=3&q5=5", ""); status != 200 || !strings.Contains(body, "count them") {
		t.Errorf("two cells as classes: %d %.600s", status, body)
	}
	// The classes-only layout's last solution, for its solution page.
	status, body := get(t, urls[1]+"/puzzle/queens:10/solution/724.json", "")
	var members []struct {
		ID     int   `json:"id"`
		Class  int   `json:"class"`
		Queens []int `json:"queens"`
	}
	err := json.Unmarshal([]byte(body), &members)
	if status != 200 || err != nil || len(members) == 0 || members[len(members)-1].ID != 724 || members[0].Class != 92 || len(members[0].Queens) != 10 {
		t.Fatalf("the last solution's class: %d %v %.300s", status, err, body)
	}
	for _, path := range []string{
		"/catalog.json",
		"/puzzle/queens:10.json?q2=3&size=200",
		"/puzzle/queens:10.json?q2=3&q5=5&count=1",
		"/puzzle/queens:10.json?cell=4,4%3D0&prop=rot180-only&size=200",
		"/puzzle/queens:10.json?q1=1&sym=on&view=classes",
		"/puzzle/queens:10/class/17.json",
		"/puzzle/queens:10/class/92.json",
		"/puzzle/queens:10/heatmap.json",
		"/puzzle/queens:10/heatmap.json?q3=2&run=1",
		"/puzzle/queens:10/stats.json?by=row:4",
		"/puzzle/queens:10/stats.json?by=cell:3,5&q1=2&run=1",
		"/puzzle/queens:10/stats.json?by=orbit",
		fmt.Sprintf("/puzzle/queens:10.json?class=%d&size=200", members[0].Class),
	} {
		var got [2]string
		for i, url := range urls {
			status, body := get(t, url+path, "")
			if status != 200 {
				t.Fatalf("%s: status %d: %.300s", path, status, body)
			}
			var v any
			if err := json.Unmarshal([]byte(body), &v); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			out, _ := json.Marshal(comparable(v))
			got[i] = string(out)
		}
		if got[0] != got[1] || len(got[0]) < 20 {
			t.Errorf("%s:\nstored     %.1500s\nas classes %.1500s", path, got[0], got[1])
		}
	}
}

// comparable drops from a page's JSON what depends on the layout (IDs of
// solutions, how it was answered and built, how long it took) and puts
// lists of objects in one order.
func comparable(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			switch k {
			case "id", "plan", "elapsed_ms", "storage", "content_hash", "built_at", "build_seconds", "workers", "search_nodes":
				continue
			}
			out[k] = comparable(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		keys := make([]string, len(v))
		objects := true
		for i, x := range v {
			out[i] = comparable(x)
			b, _ := json.Marshal(out[i])
			keys[i] = string(b)
			_, isMap := x.(map[string]any)
			objects = objects && isMap
		}
		if objects {
			order := make([]int, len(out))
			for i := range order {
				order[i] = i
			}
			slices.SortFunc(order, func(a, b int) int {
				if keys[a] < keys[b] {
					return -1
				}
				if keys[a] > keys[b] {
					return 1
				}
				return 0
			})
			sorted := make([]any, len(out))
			for i, k := range order {
				sorted[i] = out[k]
			}
			return sorted
		}
		return out
	}
	return v
}
