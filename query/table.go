package query

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// TableWriter writes a table of values (an SQL result) row by row in one
// of the text formats, holding nothing but the first rows of a text table.
type TableWriter struct {
	out    *bufio.Writer
	format Format
	cols   []string
	csv    *csv.Writer
	rows   int
	// text: the first rows are held to set the column widths, then every
	// row is written padded to them (wider values push their row only).
	held   [][]string
	widths []int
}

// textSample is how many rows set the widths of a text table.
const textSample = 200

// NewTableWriter starts a table with the given columns.
func NewTableWriter(w io.Writer, format Format, cols []string) *TableWriter {
	t := &TableWriter{out: bufio.NewWriterSize(w, 1<<16), format: format, cols: cols}
	if format == CSV {
		t.csv = csv.NewWriter(t.out)
		t.csv.Write(cols)
	}
	return t
}

// Row writes one row: int64, float64, string, []byte (written as its byte
// values) or nil.
func (t *TableWriter) Row(vals []any) error {
	t.rows++
	switch t.format {
	case JSON, JSONL:
		if t.format == JSON {
			if t.rows == 1 {
				t.out.WriteString("[\n  ")
			} else {
				t.out.WriteString(",\n  ")
			}
		}
		if err := writeJSONRow(t.out, t.cols, vals); err != nil {
			return err
		}
		if t.format == JSONL {
			t.out.WriteByte('\n')
		}
	case CSV:
		t.csv.Write(textRow(vals))
	default:
		if t.widths == nil {
			t.held = append(t.held, textRow(vals))
			if len(t.held) < textSample {
				return nil
			}
			t.flushHeld()
			return nil
		}
		t.writeText(textRow(vals))
	}
	return nil
}

func (t *TableWriter) flushHeld() {
	t.widths = make([]int, len(t.cols))
	for _, r := range append([][]string{t.cols}, t.held...) {
		for i, v := range r {
			t.widths[i] = max(t.widths[i], utf8.RuneCountInString(v))
		}
	}
	t.writeText(t.cols)
	for _, r := range t.held {
		t.writeText(r)
	}
	t.held = nil
}

func (t *TableWriter) writeText(r []string) {
	for i, v := range r {
		if i == len(r)-1 {
			t.out.WriteString(v)
			break
		}
		t.out.WriteString(v)
		t.out.WriteString(strings.Repeat(" ", max(t.widths[i]-utf8.RuneCountInString(v), 0)+2))
	}
	t.out.WriteByte('\n')
}

// Close ends the table and flushes it.
func (t *TableWriter) Close() error {
	switch t.format {
	case JSON:
		if t.rows == 0 {
			t.out.WriteString("[]\n")
		} else {
			t.out.WriteString("\n]\n")
		}
	case CSV:
		t.csv.Flush()
		if err := t.csv.Error(); err != nil {
			return err
		}
	case Text, "":
		if t.widths == nil {
			t.flushHeld()
		}
	}
	return t.out.Flush()
}

// writeJSONRow writes one row as a JSON object with its keys in column
// order; blobs become arrays of their byte values.
func writeJSONRow(b *bufio.Writer, cols []string, row []any) error {
	b.WriteByte('{')
	for j, v := range row {
		key, _ := json.Marshal(cols[j])
		if j > 0 {
			b.WriteByte(',')
		}
		b.Write(key)
		b.WriteByte(':')
		if blob, ok := v.([]byte); ok {
			b.WriteByte('[')
			for k, x := range blob {
				if k > 0 {
					b.WriteByte(',')
				}
				b.WriteString(strconv.Itoa(int(x)))
			}
			b.WriteByte(']')
			continue
		}
		val, err := json.Marshal(v)
		if err != nil {
			return err
		}
		b.Write(val)
	}
	b.WriteByte('}')
	return nil
}

func textRow(row []any) []string {
	out := make([]string, len(row))
	for i, v := range row {
		switch v := v.(type) {
		case nil:
			out[i] = "NULL"
		case []byte:
			var b strings.Builder
			b.Grow(4 * len(v))
			for k, x := range v {
				if k > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(strconv.Itoa(int(x)))
			}
			out[i] = b.String()
		default:
			out[i] = fmt.Sprint(v)
		}
	}
	return out
}
