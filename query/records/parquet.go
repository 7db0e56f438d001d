package records

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/parquet-go/parquet-go/format"

	"solcat/canon"
	"solcat/query"
)

// parquetSolution is a solution's Parquet row. cells is a list column read
// the same way as the text output: a magic square's values row by row, or
// the 1-based column of the queen in each row; DuckDB reads it as a LIST,
// Polars as List[i32], pandas (pyarrow) as arrays. props are its class's
// property names, so a dataset can be grouped by them without a join.
type parquetSolution struct {
	ID       int64    `parquet:"id"`
	Class    int64    `parquet:"class"`
	Orbit    int32    `parquet:"orbit"`
	Symmetry string   `parquet:"symmetry,dict"`
	Props    []string `parquet:"props,list"`
	Cells    []int32  `parquet:"cells,list"`
}

type parquetClass struct {
	Class    int64    `parquet:"class"`
	Orbit    int32    `parquet:"orbit"`
	Matching int64    `parquet:"matching"`
	Props    []string `parquet:"props,list"`
	Cells    []int32  `parquet:"cells,list"`
}

// Dataset says what a Parquet file holds, for its key/value metadata: a
// file read alone says which puzzle, which rows and which catalog content
// it came from.
type Dataset struct {
	Puzzle        canon.Puzzle
	Filter        string // the filter that chose the rows, in words; empty for all
	Version       string // solcat's version
	Revision      string // and the revision it was built from, if known
	SchemaVersion int64  // of the catalog
	ContentHash   string // of the puzzle in the catalog
	Cells         CellLayout
	Range         string // a range export's puzzles (queens:4-6), else empty
}

// CellLayout is how a Parquet file holds a solution's cells.
type CellLayout string

const (
	// CellColumns, the default: one column per cell, named as in CSV
	// (canon.CellName): row1 .. rowN (queens: the 1-based column of the
	// queen in row i) or r1c1 .. rNcN (magic squares: the value in row i,
	// column j), the smallest unsigned integer type that holds them.
	CellColumns CellLayout = "columns"
	// CellList: one list column, cells, row by row.
	CellList CellLayout = "list"
)

// CellColumnNames are the names of the cell columns of p in the flat
// layout: those of CSV.
func CellColumnNames(p canon.Puzzle) []string { return canon.CellNames(p) }

// columnNotes describe the columns of the two kinds of rows.
var columnNotes = map[string]string{
	"id":       "solution ID: the 1-based lexicographic rank of the solution (puzzles stored as their classes, magic:5, queens:18 and 19: class by class, lexicographic within a class)",
	"class":    "class ID: the 1-based lexicographic rank of the class's canonical form (Frénicle's standard form for magic squares)",
	"orbit":    "members of the class: 1, 2, 4 or 8",
	"symmetry": "the symmetry that carries the class's canonical form onto this solution: identity, rot90, rot180, rot270, mirror-lr, mirror-ud, transpose, anti-transpose",
	"matching": "members of the class that matched the filter",
	"props":    "the class's properties: pandiagonal, associative, most-perfect, self-complementary, dudeney-I..XII (magic:4); rot90-symmetric, rot180-only, asymmetric, toroidal, superqueen (queens)",
	"cells":    "magic squares: the values row by row; queens: the 1-based column of the queen in each row",
}

func (d Dataset) columnNote(name string) string {
	if name == "puzzle" {
		return "the puzzle the row belongs to, such as queens:8; cell columns of larger puzzles are null in its rows"
	}
	if note, ok := columnNotes[name]; ok {
		return note
	}
	r, c, _ := canon.ParseCellName(d.Puzzle.Kind, name)
	if d.Puzzle.Kind == canon.Queens {
		return fmt.Sprintf("the 1-based column of the queen in row %d", r)
	}
	return fmt.Sprintf("the value in row %d, column %d", r, c)
}

// metadata is a dataset's file's key/value metadata.
func (d Dataset) metadata(rows string, columns []string) []format.KeyValue {
	notes := Object{}
	for _, c := range columns {
		notes = append(notes, Field{c, d.columnNote(c)})
	}
	described, _ := json.Marshal(notes)
	kv := func(k, v string) format.KeyValue { return format.KeyValue{Key: k, Value: v} }
	return []format.KeyValue{
		kv("solcat.puzzle", d.puzzleName()),
		kv("solcat.rows", rows),
		kv("solcat.filter", d.Filter),
		kv("solcat.version", d.Version),
		kv("solcat.revision", d.Revision),
		kv("solcat.catalog_schema", strconv.FormatInt(d.SchemaVersion, 10)),
		kv("solcat.content_hash", d.ContentHash),
		kv("solcat.cells", string(d.layout())),
		kv("solcat.columns", string(described)),
	}
}

func (d Dataset) layout() CellLayout {
	if d.Cells == "" {
		return CellColumns
	}
	return d.Cells
}

// schemaName is the file's schema's name: after what it holds.
func (d Dataset) schemaName(rows string) string {
	return strings.NewReplacer(":", "_", "-", "_").Replace(d.puzzleName()) + "_" + rows
}

func (d Dataset) puzzleName() string {
	if d.Range != "" {
		return d.Range
	}
	return d.Puzzle.String()
}

// options are the writer options of a dataset's file in the list layout.
func (d Dataset) options(rows string, model any, columns []string) []parquet.WriterOption {
	opts := []parquet.WriterOption{parquet.NewSchema(d.schemaName(rows), parquet.SchemaOf(model)), parquet.CreatedBy("solcat", d.createdByVersion()+" ", d.createdByBuild())}
	for _, kv := range d.metadata(rows, columns) {
		opts = append(opts, parquet.KeyValueMetadata(kv.Key, kv.Value))
	}
	return opts
}

// createdBy is "solcat version V (build R)", as the Parquet format has it
// (parquet-go's own formatting leaves out the space before the bracket).
func (d Dataset) createdBy() string {
	return "solcat version " + d.createdByVersion() + " (build " + d.createdByBuild() + ")"
}

func (d Dataset) createdByVersion() string {
	if d.Version == "" {
		return "unknown"
	}
	return d.Version
}

func (d Dataset) createdByBuild() string {
	if d.Revision == "" {
		return "unknown"
	}
	return d.Revision
}

// parquetWriter buffers rows and writes them in row groups of bounded size,
// so memory stays constant whatever the export's length. The file's bytes
// depend only on the rows and the dataset.
type parquetWriter[T, R any] struct {
	w     *parquet.GenericWriter[R]
	rows  []R
	toRow func(T) R
}

const parquetBatch = 4096

func newParquetWriter[T, R any](out io.Writer, toRow func(T) R, options []parquet.WriterOption) *parquetWriter[T, R] {
	w := parquet.NewGenericWriter[R](out, append([]parquet.WriterOption{
		parquet.Compression(&zstd.Codec{}),
		parquet.MaxRowsPerRowGroup(1 << 20),
	}, options...)...)
	return &parquetWriter[T, R]{w: w, toRow: toRow}
}

func (p *parquetWriter[T, R]) Write(v T) error {
	p.rows = append(p.rows, p.toRow(v))
	if len(p.rows) < parquetBatch {
		return nil
	}
	return p.flush()
}

func (p *parquetWriter[T, R]) flush() error {
	_, err := p.w.Write(p.rows)
	p.rows = p.rows[:0]
	return err
}

func (p *parquetWriter[T, R]) Close() error {
	if err := p.flush(); err != nil {
		return err
	}
	return p.w.Close()
}

func cellsInt32(p canon.Puzzle, cells []byte) []int32 {
	out := make([]int32, len(cells))
	for i, v := range cells {
		out[i] = int32(v)
		if p.Kind == canon.Queens {
			out[i]++
		}
	}
	return out
}

// newParquetSolutionWriter streams solutions as Parquet.
func newParquetSolutionWriter(out io.Writer, d Dataset) RowWriter[query.Solution] {
	p := d.Puzzle
	if d.layout() == CellColumns {
		return newFlatSolutionWriter(out, d)
	}
	return newParquetWriter(out, func(s query.Solution) parquetSolution {
		return parquetSolution{s.ID, s.ClassID, int32(s.Orbit), s.Symmetry.String(), s.Props.Names(), cellsInt32(p, s.Cells)}
	}, d.options("solutions", new(parquetSolution), []string{"id", "class", "orbit", "symmetry", "props", "cells"}))
}

// newParquetClassWriter streams classes as Parquet.
func newParquetClassWriter(out io.Writer, d Dataset) RowWriter[query.Class] {
	p := d.Puzzle
	if d.layout() == CellColumns {
		return newFlatClassWriter(out, d)
	}
	return newParquetWriter(out, func(c query.Class) parquetClass {
		return parquetClass{c.ID, int32(c.Orbit), c.Matching, c.Props.Names(), cellsInt32(p, c.Canonical)}
	}, d.options("classes", new(parquetClass), []string{"class", "orbit", "matching", "props", "cells"}))
}

// ExportPartitioned writes the rows of a planned list or classes question
// of t as a Hive-style folder of Parquet files under dir: one
// dir/KEY=VALUE/part-0.parquet per value of the partition column (a
// class's by its orbit and its canonical form's cells). tick sees the ID
// of every 4096th row.
func ExportPartitioned(ctx context.Context, t *query.BoundPuzzle, p *query.Plan, d Dataset, pt query.Partition, dir string, tick func(id int64)) (rows int64, parts int, err error) {
	var to query.Sink
	var closeAll func() error
	if p.Question.Ask == query.AskClasses {
		write, closer := partitioned(dir, d, newParquetClassWriter, func(c query.Class) string {
			return pt.Folder(query.Solution{Cells: c.Canonical, Orbit: c.Orbit})
		}, &parts)
		to.Class = func(c query.Class) error {
			if rows++; rows%4096 == 0 {
				tick(c.ID)
			}
			return write(c)
		}
		closeAll = closer
	} else {
		write, closer := partitioned(dir, d, newParquetSolutionWriter, pt.Folder, &parts)
		to.Solution = func(s query.Solution) error {
			if rows++; rows%4096 == 0 {
				tick(s.ID)
			}
			return write(s)
		}
		closeAll = closer
	}
	_, err = t.Stream(ctx, p, to, query.Pause{})
	if cerr := closeAll(); err == nil {
		err = cerr
	}
	return rows, parts, err
}

// partitioned writes rows each to the file of its folder, opened when its
// first row comes; closeAll closes them all.
func partitioned[T any](dir string, d Dataset, newWriter func(io.Writer, Dataset) RowWriter[T], folderOf func(T) string, parts *int) (write func(T) error, closeAll func() error) {
	type part struct {
		file *os.File
		w    RowWriter[T]
	}
	open := map[string]*part{}
	var order []*part
	write = func(v T) error {
		folder := folderOf(v)
		pa := open[folder]
		if pa == nil {
			if err := os.Mkdir(filepath.Join(dir, folder), 0o755); err != nil {
				return err
			}
			file, err := os.Create(filepath.Join(dir, folder, "part-0.parquet"))
			if err != nil {
				return err
			}
			pa = &part{file: file, w: newWriter(file, d)}
			open[folder] = pa
			order = append(order, pa)
			*parts++
		}
		return pa.w.Write(v)
	}
	closeAll = func() error {
		var err error
		for _, pa := range order {
			if cerr := pa.w.Close(); err == nil {
				err = cerr
			}
			if cerr := pa.file.Close(); err == nil {
				err = cerr
			}
		}
		return err
	}
	return write, closeAll
}
