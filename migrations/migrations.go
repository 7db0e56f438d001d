// Package migrations holds the catalog's SQL schema: the numbered goose
// migrations for the fixed tables, and the template of the tables each
// stored puzzle gets.
package migrations

import (
	"embed"
	"io/fs"
	"strconv"
	"strings"
	"text/template"
)

//go:embed sql/*.sql
var files embed.FS

// FS holds the numbered migrations, for goose.NewProvider.
func FS() fs.FS {
	sub, err := fs.Sub(files, "sql")
	if err != nil {
		panic(err) // the folder is embedded above; this cannot fail
	}
	return sub
}

// Latest is the highest migration version embedded here.
func Latest() int64 {
	entries, err := fs.ReadDir(files, "sql")
	if err != nil {
		panic(err) // the folder is embedded above; this cannot fail
	}
	var latest int64
	for _, e := range entries {
		prefix, _, _ := strings.Cut(e.Name(), "_")
		if v, err := strconv.ParseInt(prefix, 10, 64); err == nil && v > latest {
			latest = v
		}
	}
	return latest
}

//go:embed puzzle_tables.sql
var puzzleTablesText string

var puzzleTables = template.Must(template.New("puzzle").Parse(puzzleTablesText))

// PuzzleTables returns the DDL that creates one puzzle's class table and
// solution blocks table under the given names.
func PuzzleTables(blocks, classes string) string {
	return execute("tables", tableNames{Blocks: blocks, Classes: classes})
}

// SolutionsView returns the DDL of the view that shows a puzzle's solution
// blocks one row per solution: cellBytes is the length of a solution's
// cells, digits the width of its class_syms entries.
func SolutionsView(view, blocks, classes string, cellBytes, digits int) string {
	return execute("solutions view", tableNames{Solutions: view, Blocks: blocks, Classes: classes, CellBytes: cellBytes, Digits: digits})
}

// ClassOnlyTables returns the DDL that creates the tables of a puzzle stored
// as its classes only: packed canonical forms, and properties apart.
func ClassOnlyTables(classes, props string) string {
	return execute("classes only", tableNames{Classes: classes, Props: props})
}

type tableNames struct {
	Solutions, Blocks, Classes, Props string
	CellBytes, Digits                 int
}

func execute(part string, names tableNames) string {
	var b strings.Builder
	if err := puzzleTables.ExecuteTemplate(&b, part, names); err != nil {
		panic(err) // the template and its fields are fixed
	}
	return b.String()
}
