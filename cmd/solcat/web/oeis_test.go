package web_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestOEISInJSON: the web's JSON names the OEIS entries a puzzle's counts
// are checked against with the keys and values of info's JSON: each
// puzzle of the catalog page, and the puzzle page.
func TestOEISInJSON(t *testing.T) {
	srv := serve(t, 10*time.Second)
	type oeis struct {
		Puzzle    string  `json:"puzzle"`
		Storage   string  `json:"storage"`
		Solutions *string `json:"oeis_solutions"`
		Classes   *string `json:"oeis_classes"`
	}
	str := func(p *string) string {
		if p == nil {
			return "null"
		}
		return *p
	}
	want := map[string][2]string{"magic": {"null", "A006052"}, "queens": {"A000170", "A002562"}}
	check := func(t *testing.T, o oeis) {
		t.Helper()
		kind, _, _ := strings.Cut(o.Puzzle, ":")
		if got := [2]string{str(o.Solutions), str(o.Classes)}; got != want[kind] {
			t.Errorf("%s: oeis_solutions, oeis_classes %v, want %v", o.Puzzle, got, want[kind])
		}
	}
	t.Run("catalog", func(t *testing.T) {
		status, body := get(t, srv.URL+"/catalog.json", "")
		var rows []oeis
		if err := json.Unmarshal([]byte(body), &rows); status != http.StatusOK || err != nil || len(rows) < 2 {
			t.Fatalf("%d, %v: %.300s", status, err, body)
		}
		for _, o := range rows {
			if o.Storage != "building" && o.Storage != "counting" { // an unfinished build is no puzzle yet
				check(t, o)
			}
		}
	})
	for _, puzzle := range []string{"queens:8", "magic:4"} {
		t.Run(puzzle, func(t *testing.T) {
			status, body := get(t, srv.URL+"/puzzle/"+puzzle+".json", "")
			var o oeis
			if err := json.Unmarshal([]byte(body), &o); status != http.StatusOK || err != nil || o.Puzzle != puzzle {
				t.Fatalf("%d, %v: %.300s", status, err, body)
			}
			check(t, o)
		})
	}
}
