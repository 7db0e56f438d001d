package web_test

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestExportAlias holds that /puzzle/NAME.csv (and .jsonl, .parquet) sends
// the browser to the download of the same rows with the same filter, as
// .json gives the page as JSON; a name that is no puzzle still says why.
func TestExportAlias(t *testing.T) {
	srv := serve(t, 10*time.Second)
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tc := range []struct {
		name, path string
		status     int
		location   string
		first      string // the first line of the file, after the redirect
	}{
		{"csv", "/puzzle/queens:8.csv", http.StatusFound, "/puzzle/queens:8/export/rows.csv", "id,class,orbit,symmetry,props,row1,row2,row3,row4,row5,row6,row7,row8"},
		{"csv filtered", "/puzzle/queens:8.csv?q1=3", http.StatusFound, "/puzzle/queens:8/export/rows.csv?q1=3", "id,class,orbit,symmetry,props,row1,row2,row3,row4,row5,row6,row7,row8"},
		{"jsonl classes", "/puzzle/magic:3.jsonl?view=classes", http.StatusFound, "/puzzle/magic:3/export/rows.jsonl?view=classes", `{"class":1,"orbit":8,`},
		{"parquet", "/puzzle/queens:6.parquet", http.StatusFound, "/puzzle/queens:6/export/rows.parquet", "PAR1"},
		{"not a puzzle", "/puzzle/chess:8.csv", http.StatusFound, "/puzzle/chess:8/export/rows.csv", ""},
		{"only a suffix", "/puzzle/.csv", http.StatusBadRequest, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, err := noFollow.Get(srv.URL + tc.path)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.status || resp.Header.Get("Location") != tc.location {
				t.Fatalf("%d to %q, want %d to %q", resp.StatusCode, resp.Header.Get("Location"), tc.status, tc.location)
			}
			if tc.first == "" {
				return
			}
			status, body := get(t, srv.URL+tc.path, "")
			if first, _, _ := strings.Cut(body, "\n"); status != http.StatusOK || !strings.HasPrefix(first, tc.first) {
				t.Errorf("after the redirect: %d %.100q, want 200 beginning %q", status, first, tc.first)
			}
		})
	}
}
