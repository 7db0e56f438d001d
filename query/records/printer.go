package records

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"
	"unicode/utf8"
)

// Every command prints its records through a Printer, so that one thing
// has one key, and one shape, in every command and format:
//
//   - json: one indented document, an array of the records (arrays of
//     numbers or strings, such as a solution's cells, stay on one line);
//   - jsonl: one compact object per line;
//   - csv: a header row (unless headers are off), then a row per record,
//     lists written as their items separated by spaces, a missing value
//     (nil) as an empty field;
//   - text: for people: a line per record (solutions, classes) or an
//     aligned table with a header (unless headers are off), aligned in
//     blocks of rows by text/tabwriter.
//
// An empty answer is "[]" in json, nothing in jsonl, and the header alone
// in csv and text tables (given by Columns).

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

// Printer writes records in one format.
type Printer struct {
	out     *bufio.Writer
	format  Format
	headers bool
	line    func(Object) string // text: one line per record; nil for a table
	n       int
	columns []string // the header when no record comes (Columns)
	// text tables: rows go through a tabwriter, which pads each column to
	// its widest value in a block of rows. A block ends after textBlock
	// rows or textBlockBytes of values, so that memory stays bounded
	// whatever the table's length, and around a row with a value wider than
	// widestColumn, which pushes its own row only.
	tw         *tabwriter.Writer
	blockRows  int
	blockBytes int
}

const (
	textBlock      = 200
	textBlockBytes = 1 << 20
	widestColumn   = 1000
)

// NewPrinter starts printing records to w. headers says whether CSV and
// text tables begin with the column names.
func NewPrinter(w io.Writer, format Format, headers bool) *Printer {
	return &Printer{out: bufio.NewWriterSize(w, 1<<16), format: format, headers: headers}
}

// Columns gives a CSV or a text table its header even when no record
// comes: the names of o's fields.
func (p *Printer) Columns(o Object) *Printer { return p.ColumnNames(names(o)) }

// ColumnNames gives a CSV or a text table its header even when no record
// comes.
func (p *Printer) ColumnNames(names []string) *Printer {
	p.columns = names
	return p
}

// lines makes the text format one line per record, as fn writes it.
func (p *Printer) lines(fn func(Object) string) *Printer {
	p.line = fn
	return p
}

// Write prints one record. A record of scalars (numbers, strings, blobs,
// nil) is written field by field, a long string or blob in pieces, so that
// a value costs no copy of itself in any format.
func (p *Printer) Write(o Object) error {
	defer func() { p.n++ }()
	switch p.format {
	case JSON:
		sep := ",\n"
		if p.n == 0 {
			sep = "[\n"
		}
		p.out.WriteString(sep)
		if scalars(o) {
			return p.writeScalars(o, "  ")
		}
		return p.writeIndented(o, "  ")
	case JSONL:
		if scalars(o) {
			if err := p.writeScalars(o, ""); err != nil {
				return err
			}
			return p.out.WriteByte('\n')
		}
		data, err := json.Marshal(o)
		if err != nil {
			return err
		}
		p.out.Write(data)
		return p.out.WriteByte('\n')
	case CSV:
		if p.n == 0 && p.headers {
			p.writeCSV(textCells(names(o)))
		}
		return p.writeCSV(o)
	}
	if p.line != nil {
		_, err := p.out.WriteString(p.line(o) + "\n")
		return err
	}
	if p.tw == nil {
		p.startTable(names(o))
	}
	wide := false
	for _, f := range o {
		wide = wide || textWidth(f.Value) > widestColumn
	}
	if wide {
		p.endBlock()
		p.writeWideRow(o)
		return nil
	}
	p.writeRow(o)
	p.blockRows++
	p.blockBytes += size(o)
	if p.blockRows >= textBlock || p.blockBytes > textBlockBytes {
		p.endBlock()
	}
	return nil
}

// writeWideRow writes a row of a value wider than widestColumn on its own,
// its values two spaces apart and written as they are, without a copy (a
// value may be a blob of many megabytes).
func (p *Printer) writeWideRow(o Object) {
	for i, f := range o {
		if i > 0 {
			p.out.WriteString("  ")
		}
		if b, ok := f.Value.([]byte); ok {
			p.writeBytes(b, " ")
			continue
		}
		p.out.WriteString(textOf(f.Value))
	}
	p.out.WriteByte('\n')
}

// startTable starts a text table, with its header row unless headers are
// off.
func (p *Printer) startTable(header []string) {
	p.tw = tabwriter.NewWriter(p.out, 0, 0, 2, ' ', tabwriter.StripEscape)
	if p.headers {
		p.writeRow(textCells(header))
	}
}

// endBlock writes the rows held, aligned, and starts a new block.
func (p *Printer) endBlock() {
	p.tw.Flush()
	p.blockRows, p.blockBytes = 0, 0
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
			p.writeCSV(textCells(p.columns))
		}
	case Text:
		if p.line == nil && p.tw == nil && p.headers && p.columns != nil {
			p.startTable(p.columns)
		}
		if p.tw != nil {
			p.tw.Flush()
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

// writeRow writes a record as a row of a text table: each value (as
// textOf writes it, invalid UTF-8 as U+FFFD) escaped, so that a tab or a
// line break in it is text, not the table's.
func (p *Printer) writeRow(o Object) {
	for i, f := range o {
		if i > 0 {
			p.tw.Write(tab)
		}
		if b, ok := f.Value.([]byte); ok {
			for k, c := range b { // numbers: nothing to escape
				if k > 0 {
					p.tw.Write(space)
				}
				io.WriteString(p.tw, byteText[c])
			}
			continue
		}
		p.tw.Write(escape)
		io.WriteString(p.tw, strings.ToValidUTF8(textOf(f.Value), "\uFFFD"))
		p.tw.Write(escape)
	}
	p.tw.Write(newline)
}

var (
	tab, space, newline = []byte{'\t'}, []byte{' '}, []byte{'\n'}
	escape              = []byte{tabwriter.Escape}
)

// textWidth is the width of textOf(v) in characters.
func textWidth(v any) int {
	b, ok := v.([]byte)
	if !ok {
		return utf8.RuneCountInString(textOf(v))
	}
	w := max(len(b)-1, 0) // the spaces between
	for _, c := range b {
		w += len(byteText[c])
	}
	return w
}

// size is about what a record's values take in memory.
func size(o Object) int {
	n := 0
	for _, f := range o {
		switch v := f.Value.(type) {
		case string:
			n += len(v)
		case []byte:
			n += len(v)
		}
		n += 16
	}
	return n
}

// textCells makes a record of texts, for a header row.
func textCells(texts []string) Object {
	o := make(Object, len(texts))
	for i, t := range texts {
		o[i] = Field{Name: t, Value: t}
	}
	return o
}

// writeCSV writes a record as a CSV row (RFC 4180, as encoding/csv does):
// a field is quoted when it holds a comma, a quote or a line break, or
// begins with a space, with its quotes doubled; nil (a missing value) is
// an empty field, as pandas, DuckDB and sqlite3 write and read it. A
// blob's numbers need no quotes and are written without a copy.
func (p *Printer) writeCSV(o Object) error {
	for i, f := range o {
		if i > 0 {
			p.out.WriteByte(',')
		}
		if b, ok := f.Value.([]byte); ok {
			p.writeBytes(b, " ")
			continue
		}
		if f.Value == nil {
			continue
		}
		text := textOf(f.Value)
		if !csvQuoted(text) {
			p.out.WriteString(text)
			continue
		}
		p.out.WriteByte('"')
		for {
			i := strings.IndexByte(text, '"')
			if i < 0 {
				break
			}
			p.out.WriteString(text[:i+1])
			p.out.WriteByte('"')
			text = text[i+1:]
		}
		p.out.WriteString(text)
		p.out.WriteByte('"')
	}
	return p.out.WriteByte('\n')
}

func csvQuoted(field string) bool {
	if field == "" {
		return false
	}
	if field == `\.` || strings.ContainsAny(field, ",\"\r\n") {
		return true
	}
	r, _ := utf8.DecodeRuneInString(field)
	return unicode.IsSpace(r)
}

// scalars reports whether every value of o is a number, a bool, a string,
// a blob or nil: a record writeScalars writes.
func scalars(o Object) bool {
	if len(o) == 0 {
		return false
	}
	for _, f := range o {
		switch f.Value.(type) {
		case nil, bool, int, int64, float64, string, []byte:
		default:
			return false
		}
	}
	return true
}

// writeScalars writes a record of scalars as a JSON object: indented by
// indent inside a JSON document, or on one line (indent ""), as
// writeIndented and json.Marshal write it, a blob as the array of its
// byte values.
func (p *Printer) writeScalars(o Object, indent string) error {
	open, colon, comma, inner, end := "{", ":", ",", "", "}"
	if indent != "" {
		open, colon, comma, inner, end = indent+"{\n", ": ", ",\n", indent+"  ", "\n"+indent+"}"
	}
	p.out.WriteString(open)
	for i, f := range o {
		if i > 0 {
			p.out.WriteString(comma)
		}
		p.out.WriteString(inner)
		p.writeJSONString(f.Name)
		p.out.WriteString(colon)
		switch v := f.Value.(type) {
		case string:
			p.writeJSONString(v)
		case []byte:
			sep := ","
			if indent != "" {
				sep = ", "
			}
			p.out.WriteByte('[')
			p.writeBytes(v, sep)
			p.out.WriteByte(']')
		default:
			data, err := json.Marshal(v)
			if err != nil {
				return err
			}
			p.out.Write(data)
		}
	}
	_, err := p.out.WriteString(end)
	return err
}

// writeJSONString writes s as json.Marshal does (HTML characters, U+2028
// and U+2029 escaped, a byte that is not UTF-8 as U+FFFD), without a copy
// of s.
func (p *Printer) writeJSONString(s string) {
	const hex = "0123456789abcdef"
	p.out.WriteByte('"')
	from := 0 // s[from:i] is still to write as it is
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= ' ' && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			p.out.WriteString(s[from:i])
			switch c {
			case '"', '\\':
				p.out.WriteByte('\\')
				p.out.WriteByte(c)
			case '\b':
				p.out.WriteString(`\b`)
			case '\f':
				p.out.WriteString(`\f`)
			case '\n':
				p.out.WriteString(`\n`)
			case '\r':
				p.out.WriteString(`\r`)
			case '\t':
				p.out.WriteString(`\t`)
			default:
				p.out.WriteString(`\u00`)
				p.out.WriteByte(hex[c>>4])
				p.out.WriteByte(hex[c&0xf])
			}
			i++
			from = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			p.out.WriteString(s[from:i])
			p.out.WriteString(`\ufffd`)
		case r == '\u2028' || r == '\u2029':
			p.out.WriteString(s[from:i])
			p.out.WriteString(`\u202`)
			p.out.WriteByte(hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		from = i
	}
	p.out.WriteString(s[from:])
	p.out.WriteByte('"')
}

// writeBytes writes a blob's byte values in decimal, sep between them.
func (p *Printer) writeBytes(b []byte, sep string) {
	for i, c := range b {
		if i > 0 {
			p.out.WriteString(sep)
		}
		p.out.WriteString(byteText[c])
	}
}

// byteText is each byte value in decimal.
var byteText = func() (t [256]string) {
	for i := range t {
		t[i] = strconv.Itoa(i)
	}
	return t
}()

func names(o Object) []string {
	out := make([]string, len(o))
	for i, f := range o {
		out[i] = f.Name
	}
	return out
}

// textOf writes a value for a CSV cell or a text table: lists as their items
// separated by spaces, nil as NULL (CSV writes it as an empty field).
func textOf(v any) string {
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

// Obj makes an Object of names and values in turn: Obj("id", 1, "class", 3).
func Obj(namesAndValues ...any) Object {
	o := make(Object, 0, len(namesAndValues)/2)
	for i := 0; i+1 < len(namesAndValues); i += 2 {
		o = append(o, Field{Name: namesAndValues[i].(string), Value: namesAndValues[i+1]})
	}
	return o
}
