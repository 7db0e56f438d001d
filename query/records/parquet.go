package records

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

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
}

// columnNotes describe the columns of the two kinds of rows.
var columnNotes = map[string]string{
	"id":       "solution ID: the 1-based lexicographic rank of the solution (puzzles stored as their classes, magic:5, queens:18 and 19: class by class, lexicographic within a class)",
	"class":    "class ID: the 1-based lexicographic rank of the class's canonical form (Frénicle's standard form for magic squares)",
	"orbit":    "members of the class: 1, 2, 4 or 8",
	"symmetry": "the symmetry that carries the class's canonical form onto this solution: identity, rot90, rot180, rot270, mirror-lr, mirror-ud, transpose, anti-transpose",
	"matching": "members of the class that matched the filter",
	"props":    "the class's properties: pandiagonal, associative, most-perfect, self-complementary, dudeney-I..XII (magic:4); rot90-symmetric, rot180-only, asymmetric (queens)",
	"cells":    "magic squares: the values row by row; queens: the 1-based column of the queen in each row",
}

// options are the writer options of a dataset's file: its metadata, a
// schema named after what it holds, and a created_by of the form Parquet
// readers expect ("solcat version V (build R)").
func (d Dataset) options(rows string, model any, columns []string) []parquet.WriterOption {
	notes := Object{}
	for _, c := range columns {
		notes = append(notes, Field{c, columnNotes[c]})
	}
	described, _ := json.Marshal(notes)
	name := strings.NewReplacer(":", "_").Replace(d.Puzzle.String()) + "_" + rows
	return []parquet.WriterOption{
		parquet.NewSchema(name, parquet.SchemaOf(model)),
		createdBy(d.Version, d.Revision),
		parquet.KeyValueMetadata("solcat.puzzle", d.Puzzle.String()),
		parquet.KeyValueMetadata("solcat.rows", rows),
		parquet.KeyValueMetadata("solcat.filter", d.Filter),
		parquet.KeyValueMetadata("solcat.version", d.Version),
		parquet.KeyValueMetadata("solcat.catalog_schema", strconv.FormatInt(d.SchemaVersion, 10)),
		parquet.KeyValueMetadata("solcat.content_hash", d.ContentHash),
		parquet.KeyValueMetadata("solcat.columns", string(described)),
	}
}

// createdBy is "solcat version V (build R)", as the Parquet format has it
// (parquet-go's own formatting leaves out the space before the bracket).
// A build from a clone has no module version: 0.0.0-devel, a version
// readers can parse.
func createdBy(version, revision string) parquet.WriterOption {
	if version == "" || version == "(devel)" {
		version = "0.0.0-devel"
	}
	if revision == "" {
		revision = "unknown"
	}
	return parquet.CreatedBy("solcat", version+" ", revision)
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
	return newParquetWriter(out, func(s query.Solution) parquetSolution {
		return parquetSolution{s.ID, s.ClassID, int32(s.Orbit), s.Symmetry.String(), s.Props.Names(), cellsInt32(p, s.Cells)}
	}, d.options("solutions", new(parquetSolution), []string{"id", "class", "orbit", "symmetry", "props", "cells"}))
}

// newParquetClassWriter streams classes as Parquet.
func newParquetClassWriter(out io.Writer, d Dataset) RowWriter[query.Class] {
	p := d.Puzzle
	return newParquetWriter(out, func(c query.Class) parquetClass {
		return parquetClass{c.ID, int32(c.Orbit), c.Matching, c.Props.Names(), cellsInt32(p, c.Canonical)}
	}, d.options("classes", new(parquetClass), []string{"class", "orbit", "matching", "props", "cells"}))
}

// ExportPartitioned writes the solutions of a planned list of t as a
// Hive-style folder of Parquet files under dir: one
// dir/KEY=VALUE/part-0.parquet per value of the partition column. tick
// sees the ID of every 4096th row.
func ExportPartitioned(ctx context.Context, t *query.BoundPuzzle, p *query.Plan, d Dataset, pt query.Partition, dir string, tick func(id int64)) (rows int64, parts int, err error) {
	type part struct {
		file *os.File
		w    RowWriter[query.Solution]
	}
	open := map[string]*part{}
	err = t.List(ctx, p, func(s query.Solution) error {
		folder := pt.Folder(s)
		pa := open[folder]
		if pa == nil {
			if err := os.Mkdir(filepath.Join(dir, folder), 0o755); err != nil {
				return err
			}
			file, err := os.Create(filepath.Join(dir, folder, "part-0.parquet"))
			if err != nil {
				return err
			}
			pa = &part{file: file, w: newParquetSolutionWriter(file, d)}
			open[folder] = pa
		}
		if rows++; rows%4096 == 0 {
			tick(s.ID)
		}
		return pa.w.Write(s)
	})
	for _, pa := range open {
		if cerr := pa.w.Close(); err == nil {
			err = cerr
		}
		if cerr := pa.file.Close(); err == nil {
			err = cerr
		}
	}
	return rows, len(open), err
}
