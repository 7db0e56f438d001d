package query

import (
	"io"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"

	"solcat/canon"
)

// Parquet is the Parquet output format (export only).
const Parquet Format = "parquet"

// RowWriter streams items of one kind to an output.
type RowWriter[T any] interface {
	Write(T) error
	Close() error
}

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

// parquetWriter buffers rows and writes them in row groups of bounded size,
// so memory stays constant whatever the export's length. The file's bytes
// depend only on the rows: the writer's name and version are fixed.
type parquetWriter[T, R any] struct {
	w     *parquet.GenericWriter[R]
	rows  []R
	toRow func(T) R
}

const parquetBatch = 4096

func newParquetWriter[T, R any](out io.Writer, toRow func(T) R) *parquetWriter[T, R] {
	w := parquet.NewGenericWriter[R](out,
		parquet.Compression(&zstd.Codec{}),
		parquet.MaxRowsPerRowGroup(1<<20),
		parquet.CreatedBy("solcat", "1", ""),
	)
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

// NewParquetSolutionWriter streams solutions as Parquet.
func NewParquetSolutionWriter(out io.Writer, p canon.Puzzle) RowWriter[Solution] {
	return newParquetWriter(out, func(s Solution) parquetSolution {
		return parquetSolution{s.ID, s.ClassID, int32(s.Orbit), s.Symmetry.String(), s.Props.Names(), cellsInt32(p, s.Cells)}
	})
}

// NewParquetClassWriter streams classes as Parquet.
func NewParquetClassWriter(out io.Writer, p canon.Puzzle) RowWriter[Class] {
	return newParquetWriter(out, func(c Class) parquetClass {
		return parquetClass{c.ID, int32(c.Orbit), c.Matching, c.Props.Names(), cellsInt32(p, c.Canonical)}
	})
}
