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

// Readable holds the SQL expressions that show a puzzle's rows as people
// read them: Form the canonical form of a class row, Props its property
// names, Solution a solution of the view (given the SQL of each of its
// cells).
type Readable struct {
	Form, Props string
	Solution    func(cell func(i int) string) string
}

// PuzzleTables returns the DDL that creates one puzzle's class table
// (without its readable columns: ReadableClassColumns adds them) and its
// checks, solution blocks table and block index under the given names.
func PuzzleTables(blocks, index, classes, checks string) string {
	return execute("tables", tableNames{Blocks: blocks, Index: index, Classes: classes, Checks: checks})
}

// ReadableClassColumns returns the DDL that adds the readable columns to
// a class table: one a build has filled, or one made before them.
func ReadableClassColumns(classes string, r Readable) string {
	cols := execute("readable classes", tableNames{FormText: r.Form, PropsText: r.Props})
	var ddl strings.Builder
	for _, col := range strings.Split(cols, ",\n") {
		ddl.WriteString("ALTER TABLE " + classes + " ADD COLUMN " + strings.TrimSpace(col) + ";\n")
	}
	return ddl.String()
}

// SolutionsView returns the DDL of the view that shows a puzzle's solution
// blocks one row per solution: cellBytes is the length of a solution's
// cells, digits the width of its class_syms entries; layout is the
// blocks' (3: the blocks solcat writes, column by column with class
// entries in base 64; 2: column by column, class entries in decimal; 1:
// each solution's cells in turn, class entries in decimal).
func SolutionsView(view, blocks, classes string, cellBytes, digits, layout int, r Readable) string {
	columnar := layout >= 2
	c := strconv.Itoa(cellBytes)
	cell := func(i int) string {
		return "substr(b.cells, k.slot * " + c + " + " + strconv.Itoa(i+1) + ", 1)"
	}
	cells := "substr(b.cells, k.slot * " + c + " + 1, " + c + ")"
	if columnar {
		// Cell i of solution k is byte i·n + k of a block of n solutions.
		cell = func(i int) string {
			return "substr(b.cells, " + strconv.Itoa(i) + " * (length(b.cells) / " + c + ") + k.slot + 1, 1)"
		}
		// || joins the bytes as they are (a NUL too); CAST makes them a
		// blob again. (unhex would be plainer, but older sqlite3 shells
		// lack it.)
		parts := make([]string, cellBytes)
		for i := range parts {
			parts[i] = cell(i)
		}
		cells = "CAST(" + strings.Join(parts, " || ") + " AS BLOB)"
	}
	d := strconv.Itoa(digits)
	entry := "substr(b.class_syms, k.slot * " + d + " + 1, " + d + ")"
	classSym := "CAST(" + entry + " AS INTEGER)"
	if layout == 3 {
		// Base 64: digit j (from 1) is unicode() of its character less 48.
		terms := make([]string, digits)
		for j := range terms {
			terms[j] = "((unicode(substr(b.class_syms, k.slot * " + d + " + " + strconv.Itoa(j+1) + ", 1)) - 48) << " + strconv.Itoa(6*(digits-1-j)) + ")"
		}
		classSym = "(" + strings.Join(terms, " | ") + ")"
	}
	return execute("solutions view", tableNames{Solutions: view, Blocks: blocks, Classes: classes, CellBytes: cellBytes, Digits: digits, SolutionText: r.Solution(cell), CellsText: cells, ClassSym: classSym})
}

// ReadableViews returns the DDL of the views SQL users read, which hold no
// bytes: view shows the solutions of the view raw (made by SolutionsView;
// named without a schema, as a view may name only its own schema's
// tables), classesView (classes_<p>) the classes of the table classes
// (classes_<p>_raw).
func ReadableViews(view, raw, classesView, classes string) string {
	return execute("readable views", tableNames{Solutions: view, Raw: raw, ClassesView: classesView, Classes: classes})
}

// ClassOnlyTables returns the DDL that creates the tables of a puzzle stored
// as its classes only: packed canonical forms of formBytes each, perBlock
// to a row, their index, and properties apart; for queens (orbits not
// empty) the classes with fewer than 8 members apart too.
func ClassOnlyTables(classes, index, props, orbits string, perBlock, formBytes int) string {
	return execute("classes only", tableNames{Classes: classes, Index: index, Props: props, Orbits: orbits, PerBlock: perBlock, FormBytes: formBytes})
}

// PackedClassesView returns the DDL of the view SQL users read of a puzzle
// stored as its classes only: view (classes_<p>) shows the packed forms
// of the table classes, perBlock to a row and formBytes each, with form
// (the expression of a form's text, given the SQL of the form as bytes),
// and the orbits (queens; "" for none) and props tables; r.Props names
// the properties from the columns orbit and props.
func PackedClassesView(view, classes, props, orbits string, perBlock, formBytes int, form func(packed string) string, r Readable) string {
	packed := "substr(b.forms, k.slot * " + strconv.Itoa(formBytes) + " + 1, " + strconv.Itoa(formBytes) + ")"
	return execute("packed classes view", tableNames{ClassesView: view, Classes: classes, Props: props, Orbits: orbits,
		PerBlock: perBlock, FormBytes: formBytes, FormText: form(packed), PropsText: r.Props})
}

type tableNames struct {
	Solutions, Blocks, Index, Classes, Props string
	Orbits, ClassSym, Checks                 string
	Raw, ClassesView                         string
	CellBytes, Digits, PerBlock, FormBytes   int
	FormText, PropsText, SolutionText        string
	CellsText                                string
}

func execute(part string, names tableNames) string {
	var b strings.Builder
	if err := puzzleTables.ExecuteTemplate(&b, part, names); err != nil {
		panic(err) // the template and its fields are fixed
	}
	return b.String()
}
