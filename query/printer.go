package query

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Every command prints its records through a Printer, so that one thing
// has one key, and one shape, in every command and format:
//
//   - json: one indented document, an array of the records (arrays of
//     numbers or strings, such as a solution's cells, stay on one line);
//   - jsonl: one compact object per line;
//   - csv: a header row (unless headers are off), then a row per record,
//     lists written as their items separated by spaces;
//   - text: for people: a line per record (solutions, classes) or an
//     aligned table with a header (unless headers are off).

// Field is one named value of a record: a number, a string, a bool, a
// list of them, a list of lists, nil, or an Object.
type Field struct {
	Name  string
	Value any
}

// Object is a record: its fields in order. It marshals as a JSON object
// with its keys in that order.
type Object []Field

// MarshalJSON writes the fields in order.
func (o Object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(f.Name)
		b.Write(key)
		b.WriteByte(':')
		val, err := json.Marshal(f.Value)
		if err != nil {
			return nil, err
		}
		b.Write(val)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Formats lists the formats of records, for help and errors.
var Formats = []Format{Text, JSON, JSONL, CSV}

// ParseFormat reads a format name, in any case, that allowed holds.
func ParseFormat(text string, allowed ...Format) (Format, bool) {
	f := Format(strings.ToLower(text))
	for _, a := range allowed {
		if f == a {
			return f, true
		}
	}
	return "", false
}

// Printer writes records in one format.
type Printer struct {
	out     *bufio.Writer
	format  Format
	headers bool
	line    func(Object) string // text: one line per record; nil for a table
	n       int
	csv     *csv.Writer
	// text tables: the first rows are held to set the column widths, then
	// every row is written padded to them (a wider value pushes its row only).
	held    []Object
	widths  []int
	names   []string
	columns []string // a CSV's header when no record comes (Columns)
}

// textSample is how many rows set the widths of a text table.
const textSample = 200

// NewPrinter starts printing records to w. headers says whether CSV and
// text tables begin with the column names.
func NewPrinter(w io.Writer, format Format, headers bool) *Printer {
	p := &Printer{out: bufio.NewWriterSize(w, 1<<16), format: format, headers: headers}
	p.csv = csv.NewWriter(p.out)
	return p
}

// Columns gives a CSV its header even when no record comes: the names of
// o's fields.
func (p *Printer) Columns(o Object) *Printer {
	p.columns = names(o)
	return p
}

// Lines makes the text format one line per record, as fn writes it.
func (p *Printer) Lines(fn func(Object) string) *Printer {
	p.line = fn
	return p
}

// Write prints one record.
func (p *Printer) Write(o Object) error {
	defer func() { p.n++ }()
	switch p.format {
	case JSON:
		sep := ",\n"
		if p.n == 0 {
			sep = "[\n"
		}
		p.out.WriteString(sep)
		return p.writeIndented(o, "  ")
	case JSONL:
		data, err := json.Marshal(o)
		if err != nil {
			return err
		}
		p.out.Write(data)
		return p.out.WriteByte('\n')
	case CSV:
		if p.n == 0 && p.headers {
			p.csv.Write(names(o))
		}
		return p.csv.Write(texts(o))
	}
	if p.line != nil {
		_, err := p.out.WriteString(p.line(o) + "\n")
		return err
	}
	if p.widths == nil {
		p.held = append(p.held, o)
		if len(p.held) == textSample {
			p.flushHeld()
		}
		return nil
	}
	p.writeRow(texts(o))
	return nil
}

// Close ends the document and flushes it.
func (p *Printer) Close() error {
	switch p.format {
	case JSON:
		if p.n == 0 {
			p.out.WriteString("[]\n")
		} else {
			p.out.WriteString("\n]\n")
		}
	case CSV:
		if p.n == 0 && p.headers && p.columns != nil {
			p.csv.Write(p.columns)
		}
		p.csv.Flush()
		if err := p.csv.Error(); err != nil {
			return err
		}
	case Text:
		if p.line == nil && p.widths == nil {
			p.flushHeld()
		}
	}
	return p.out.Flush()
}

// WriteDocument prints one record as a whole document: indented in json,
// one line in jsonl.
func (p *Printer) WriteDocument(o Object) error {
	if p.format == JSONL {
		if err := p.Write(o); err != nil {
			return err
		}
		return p.out.Flush()
	}
	if err := p.writeIndented(o, ""); err != nil {
		return err
	}
	p.out.WriteByte('\n')
	return p.out.Flush()
}

func (p *Printer) writeIndented(o Object, prefix string) error {
	data, err := json.MarshalIndent(o, prefix, "  ")
	if err != nil {
		return err
	}
	p.out.WriteString(prefix) // MarshalIndent puts it before every line but the first
	_, err = p.out.Write(inlineScalarArrays(data))
	return err
}

func (p *Printer) flushHeld() {
	if len(p.held) > 0 {
		p.names = names(p.held[0])
	}
	p.widths = make([]int, len(p.names))
	rows := make([][]string, 0, len(p.held)+1)
	if p.headers {
		rows = append(rows, p.names)
	}
	for _, o := range p.held {
		rows = append(rows, texts(o))
	}
	for _, r := range rows {
		for i, v := range r {
			if i < len(p.widths) {
				p.widths[i] = max(p.widths[i], utf8.RuneCountInString(v))
			}
		}
	}
	for _, r := range rows {
		p.writeRow(r)
	}
	p.held = nil
}

func (p *Printer) writeRow(r []string) {
	for i, v := range r {
		p.out.WriteString(v)
		if i < len(r)-1 && i < len(p.widths) {
			p.out.WriteString(strings.Repeat(" ", max(p.widths[i]-utf8.RuneCountInString(v), 0)+2))
		}
	}
	p.out.WriteByte('\n')
}

func names(o Object) []string {
	out := make([]string, len(o))
	for i, f := range o {
		out[i] = f.Name
	}
	return out
}

func texts(o Object) []string {
	out := make([]string, len(o))
	for i, f := range o {
		out[i] = TextOf(f.Value)
	}
	return out
}

// TextOf writes a value for a CSV cell or a text table: lists as their items
// separated by spaces, nil as NULL.
func TextOf(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case string:
		return v
	case []byte:
		return joinInts(len(v), func(i int) int64 { return int64(v[i]) })
	case []int:
		return joinInts(len(v), func(i int) int64 { return int64(v[i]) })
	case []int64:
		return joinInts(len(v), func(i int) int64 { return v[i] })
	case []string:
		return strings.Join(v, " ")
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

func joinInts(n int, at func(i int) int64) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.FormatInt(at(i), 10))
	}
	return b.String()
}

// inlineScalarArrays puts each array of numbers or strings in indented JSON
// back on one line: [2, 4, 6, 1, 3, 5] rather than one number a line.
func inlineScalarArrays(data []byte) []byte {
	var out bytes.Buffer
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c == '"' {
			j := endOfString(data, i)
			out.Write(data[i:j])
			i = j - 1
			continue
		}
		if c != '[' {
			out.WriteByte(c)
			continue
		}
		end, flat := scalarArray(data, i)
		if !flat {
			out.WriteByte(c)
			continue
		}
		// Rewrite [ \n  1,\n  2\n ] as [1, 2].
		out.WriteByte('[')
		for k := i + 1; k < end; k++ {
			switch d := data[k]; {
			case d == '"':
				j := endOfString(data, k)
				out.Write(data[k:j])
				k = j - 1
			case d == ',':
				out.WriteString(", ")
			case d == '\n' || d == ' ' || d == '\t':
			default:
				out.WriteByte(d)
			}
		}
		out.WriteByte(']')
		i = end
	}
	return out.Bytes()
}

// scalarArray finds the ']' that closes the '[' at i and reports whether
// the array holds no object or array.
func scalarArray(data []byte, i int) (end int, flat bool) {
	for k := i + 1; k < len(data); k++ {
		switch data[k] {
		case '"':
			k = endOfString(data, k) - 1
		case '[', '{':
			return 0, false
		case ']':
			return k, true
		}
	}
	return 0, false
}

// endOfString returns the index just past the JSON string starting at i.
func endOfString(data []byte, i int) int {
	for k := i + 1; k < len(data); k++ {
		switch data[k] {
		case '\\':
			k++
		case '"':
			return k + 1
		}
	}
	return len(data)
}

// O makes an Object of names and values in turn: O("id", 1, "class", 3).
func O(namesAndValues ...any) Object {
	o := make(Object, 0, len(namesAndValues)/2)
	for i := 0; i+1 < len(namesAndValues); i += 2 {
		o = append(o, Field{Name: namesAndValues[i].(string), Value: namesAndValues[i+1]})
	}
	return o
}

// FormatOfFile is the export format a file name asks for by its extension
// (.csv, .json, .jsonl or .ndjson, .parquet), or "" for any other name.
func FormatOfFile(name string) Format {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".csv":
		return CSV
	case ".jsonl", ".ndjson":
		return JSONL
	case ".parquet":
		return Parquet
	case ".json":
		return JSON
	}
	return ""
}
