package web_test

import (
	"context"
	"database/sql"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"solcat/catalog"
	"solcat/cmd/solcat/web"
)

// TestDamagedPuzzlePages: every page that reads a damaged part of a puzzle
// (a byte of a block, a class row, a record changed behind solcat's back)
// says the puzzle is damaged and names verify, never a number from it;
// damage to the blocks or the record stops every page of the puzzle, and
// the other puzzles' pages answer as before.
func TestDamagedPuzzlePages(t *testing.T) {
	data, err := os.ReadFile(testCatalog)
	if err != nil {
		t.Fatal(err)
	}
	all := []string{"/puzzle/queens:8", "/puzzle/queens:8.json?row1=3", "/puzzle/queens:8?view=classes",
		"/puzzle/queens:8/class/3", "/puzzle/queens:8/solution/14.json", "/puzzle/queens:8/stats?by=row:1",
		"/puzzle/queens:8/stats.json?by=orbit", "/puzzle/queens:8/heatmap.json", "/puzzle/queens:8.csv"}
	classPages := []string{"/puzzle/queens:8?view=classes", "/puzzle/queens:8/class/3", "/puzzle/queens:8/class/3.json", "/puzzle/queens:8.json?view=classes"}
	for _, tc := range []struct {
		name, sql string
		pages     []string
	}{
		{"a cell byte", "UPDATE solution_blocks_queens_8 SET cells = substr(cells, 1, 100) || x'07' || substr(cells, 102) WHERE first_id = 1", all},
		{"a block deleted", "DELETE FROM solution_blocks_queens_8", all},
		{"the record's counts", "UPDATE puzzles SET solutions = 93 WHERE name = 'queens:8'", all},
		{"a class row's orbit", "UPDATE classes_queens_8_raw SET orbit = 4 WHERE id = 3", classPages},
		{"a class row's form", "UPDATE classes_queens_8_raw SET canonical = x'0001020304050607' WHERE id = 3", classPages},
		{"a class check", "UPDATE class_checks_queens_8 SET checksum = checksum + 1", classPages},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "cat.db")
			if err := os.WriteFile(db, data, 0o644); err != nil {
				t.Fatal(err)
			}
			conn, err := sql.Open("sqlite", db)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := conn.Exec(tc.sql); err != nil {
				t.Fatal(err)
			}
			conn.Close()
			cat, err := catalog.Open(context.Background(), db)
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(web.New(cat, db, web.Options{Timeout: 10 * time.Second, Concurrent: 4, Version: "test"}))
			defer func() { srv.Close(); cat.Close() }()
			for _, page := range tc.pages {
				status, body := get(t, srv.URL+page, "")
				if status < 500 || !strings.Contains(body, "damaged") || !strings.Contains(body, "verify") {
					t.Errorf("%s: status %d, %.300s; want a page saying the puzzle is damaged", page, status, body)
				}
			}
			if status, _ := get(t, srv.URL+"/puzzle/queens:7.json", ""); status != 200 {
				t.Errorf("queens:7 beside it: status %d", status)
			}
		})
	}
}
