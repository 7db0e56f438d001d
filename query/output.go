package query

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"solcat/canon"
)

// Format is an output format.
type Format string

const (
	Text  Format = "text"  // for people; solutions as in USACO: 1-based numbers separated by spaces
	JSON  Format = "json"  // one JSON document
	JSONL Format = "jsonl" // one JSON object per line
	CSV   Format = "csv"   // a header row, then one row per item
)

// Cells renders stored cells for a person: a magic square's values row by
// row, or the 1-based column of the queen in each row, separated by spaces.
func Cells(p canon.Puzzle, cells []byte) string {
	var b strings.Builder
	for i, v := range cells {
		if i > 0 {
			b.WriteByte(' ')
		}
		if p.Kind == canon.Queens {
			v++
		}
		b.WriteString(strconv.Itoa(int(v)))
	}
	return b.String()
}

// cellsJSON holds cells in JSON: a magic square as "grid", an array of
// rows, queens as "queens", the array of 1-based columns.
type cellsJSON struct {
	Grid   [][]int `json:"grid,omitempty"`
	Queens []int   `json:"queens,omitempty"`
}

func toCellsJSON(p canon.Puzzle, cells []byte) cellsJSON {
	if p.Kind == canon.Queens {
		cols := make([]int, len(cells))
		for i, c := range cells {
			cols[i] = int(c) + 1
		}
		return cellsJSON{Queens: cols}
	}
	grid := make([][]int, p.N)
	for r := range grid {
		grid[r] = make([]int, p.N)
		for c := range grid[r] {
			grid[r][c] = int(cells[r*p.N+c])
		}
	}
	return cellsJSON{Grid: grid}
}

// cellColumns are the CSV headers of the cells: r1c1..rncn for magic
// squares, row1..rowN (the queen's 1-based column) for queens.
func cellColumns(p canon.Puzzle) []string {
	var cols []string
	if p.Kind == canon.Queens {
		for r := 1; r <= p.N; r++ {
			cols = append(cols, "row"+strconv.Itoa(r))
		}
		return cols
	}
	for r := 1; r <= p.N; r++ {
		for c := 1; c <= p.N; c++ {
			cols = append(cols, fmt.Sprintf("r%dc%d", r, c))
		}
	}
	return cols
}

func cellFields(p canon.Puzzle, cells []byte) []string {
	return strings.Fields(Cells(p, cells))
}

// Writer streams items of one kind in one format.
type Writer[T any] struct {
	out    *bufio.Writer
	csv    *csv.Writer
	format Format
	count  int
	header []string
	text   func(T) string
	fields func(T) []string
	object func(T) any
}

func (w *Writer[T]) Write(v T) error {
	defer func() { w.count++ }()
	switch w.format {
	case CSV:
		if w.count == 0 {
			if err := w.csv.Write(w.header); err != nil {
				return err
			}
		}
		return w.csv.Write(w.fields(v))
	case JSON, JSONL:
		data, err := json.Marshal(w.object(v))
		if err != nil {
			return err
		}
		sep := "\n"
		if w.format == JSON {
			sep = ",\n  "
			if w.count == 0 {
				sep = "[\n  "
			}
			w.out.WriteString(sep)
			_, err = w.out.Write(data)
			return err
		}
		w.out.Write(data)
		_, err = w.out.WriteString(sep)
		return err
	default:
		_, err := w.out.WriteString(w.text(v) + "\n")
		return err
	}
}

// Close ends the document and flushes it.
func (w *Writer[T]) Close() error {
	switch w.format {
	case CSV:
		if w.count == 0 {
			w.csv.Write(w.header)
		}
		w.csv.Flush()
		if err := w.csv.Error(); err != nil {
			return err
		}
	case JSON:
		if w.count == 0 {
			w.out.WriteString("[]\n")
		} else {
			w.out.WriteString("\n]\n")
		}
	}
	return w.out.Flush()
}

func newWriter[T any](out io.Writer, format Format) *Writer[T] {
	buf := bufio.NewWriterSize(out, 1<<16)
	return &Writer[T]{out: buf, csv: csv.NewWriter(buf), format: format}
}

type solutionJSON struct {
	ID       int64  `json:"id"`
	Class    int64  `json:"class"`
	Orbit    int    `json:"orbit"`
	Symmetry string `json:"symmetry"`
	cellsJSON
}

type classJSON struct {
	Class    int64    `json:"class"`
	Orbit    int      `json:"orbit"`
	Matching int64    `json:"matching"`
	Props    []string `json:"props"`
	cellsJSON
}

// NewSolutionWriter streams solutions. JSON objects have the fields id,
// class, orbit, symmetry and the cells (see cellsJSON).
func NewSolutionWriter(out io.Writer, format Format, p canon.Puzzle) *Writer[Solution] {
	w := newWriter[Solution](out, format)
	w.header = append([]string{"id", "class", "orbit", "symmetry"}, cellColumns(p)...)
	w.text = func(s Solution) string { return Cells(p, s.Cells) }
	w.fields = func(s Solution) []string {
		return append([]string{strconv.FormatInt(s.ID, 10), strconv.FormatInt(s.ClassID, 10),
			strconv.Itoa(s.Orbit), s.Symmetry.String()}, cellFields(p, s.Cells)...)
	}
	w.object = func(s Solution) any {
		return solutionJSON{s.ID, s.ClassID, s.Orbit, s.Symmetry.String(), toCellsJSON(p, s.Cells)}
	}
	return w
}

// NewClassWriter streams classes. JSON objects have the fields class,
// orbit, matching (members that matched the filter) and the canonical form's
// cells (see cellsJSON).
func NewClassWriter(out io.Writer, format Format, p canon.Puzzle, maxID int64) *Writer[Class] {
	w := newWriter[Class](out, format)
	w.header = append([]string{"class", "orbit", "matching", "props"}, cellColumns(p)...)
	width := len(strconv.FormatInt(max(maxID, 10), 10))
	w.text = func(c Class) string {
		return fmt.Sprintf("%*d  %d  %d  %s  %s", width, c.ID, c.Orbit, c.Matching, Cells(p, c.Canonical), c.Props)
	}
	w.fields = func(c Class) []string {
		return append([]string{strconv.FormatInt(c.ID, 10), strconv.Itoa(c.Orbit), strconv.FormatInt(c.Matching, 10), c.Props.String()},
			cellFields(p, c.Canonical)...)
	}
	w.object = func(c Class) any {
		return classJSON{c.ID, c.Orbit, c.Matching, c.Props.Names(), toCellsJSON(p, c.Canonical)}
	}
	return w
}
