package main

import (
	"bufio"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"solcat/catalog"
	"solcat/query"
)

type sqlCmd struct {
	Query string `arg:"" name:"query" help:"One read-only statement: SELECT, WITH, VALUES, EXPLAIN or a PRAGMA that reads."`
}

func (s *sqlCmd) Help() string {
	return `The catalog is opened read-only and statements that write are refused.
Blob cells are shown as their stored byte values separated by spaces (queens:
0-based columns); in JSON as arrays of numbers. See the README for the schema.

Examples:
  solcat sql "SELECT name, solutions, classes FROM puzzles"
  solcat sql "SELECT orbit, count(*) FROM classes_queens_10 GROUP BY orbit" --format csv
  solcat sql "SELECT id, cells FROM solutions_magic_4 WHERE class_id = 1" --format json`
}

var readKeywords = map[string]bool{"SELECT": true, "WITH": true, "VALUES": true, "EXPLAIN": true, "PRAGMA": true}

// writeKeywords begin the SQLite statements that are not reads.
var writeKeywords = map[string]bool{"ALTER": true, "ANALYZE": true, "ATTACH": true, "BEGIN": true, "COMMIT": true, "CREATE": true,
	"DELETE": true, "DETACH": true, "DROP": true, "END": true, "INSERT": true, "REINDEX": true, "RELEASE": true, "REPLACE": true,
	"ROLLBACK": true, "SAVEPOINT": true, "UPDATE": true, "VACUUM": true}

// actionPragmas act on the catalog even without an argument.
var actionPragmas = map[string]bool{"optimize": true, "wal_checkpoint": true, "incremental_vacuum": true, "shrink_memory": true}

// refusedSQL is the one message of every statement sql refuses to run.
func refusedSQL(what string) error {
	return usagef("sql runs read-only queries (SELECT, WITH, VALUES, EXPLAIN, PRAGMA reads); %s would change the catalog", what)
}

// checkReadOnly refuses text that is not exactly one statement that reads.
// The connection is read-only as well; this gives the clearer message.
func checkReadOnly(text string) error {
	stmt, rest := splitStatement(text)
	if strings.TrimSpace(rest) != "" {
		return usagef("sql takes one statement, found more after %q; run them one at a time", strings.TrimSpace(stmt))
	}
	fields := strings.Fields(strings.ToUpper(stripComments(stmt)))
	if len(fields) == 0 {
		return usagef("sql needs a query, for example: solcat sql \"SELECT * FROM puzzles\"")
	}
	keyword := strings.TrimLeft(fields[0], "(")
	if i := strings.IndexAny(keyword, "(;"); i > 0 {
		keyword = keyword[:i]
	}
	switch {
	case writeKeywords[keyword]:
		return refusedSQL(keyword)
	case !readKeywords[keyword]:
		return usagef("sql: %q is not valid SQL: a statement begins with SELECT, WITH, VALUES, EXPLAIN or PRAGMA", strings.TrimSpace(stmt))
	}
	if keyword == "PRAGMA" {
		if strings.Contains(stmt, "=") {
			return refusedSQL("a PRAGMA assignment")
		}
		name := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(stripComments(stmt))[len("PRAGMA"):], " ")))
		if i := strings.IndexAny(name, "( \t\n;"); i >= 0 {
			name = name[:i]
		}
		if _, after, ok := strings.Cut(name, "."); ok { // schema.pragma
			name = after
		}
		if actionPragmas[name] {
			return refusedSQL("PRAGMA " + name)
		}
	}
	return nil
}

// stripComments removes SQL comments from the start of a statement.
func stripComments(stmt string) string {
	for {
		stmt = strings.TrimSpace(stmt)
		switch {
		case strings.HasPrefix(stmt, "--"):
			i := strings.IndexByte(stmt, '\n')
			if i < 0 {
				return ""
			}
			stmt = stmt[i+1:]
		case strings.HasPrefix(stmt, "/*"):
			i := strings.Index(stmt, "*/")
			if i < 0 {
				return ""
			}
			stmt = stmt[i+2:]
		default:
			return stmt
		}
	}
}

// splitStatement returns the first statement of text (up to a semicolon
// outside quotes and comments) and what follows it.
func splitStatement(text string) (string, string) {
	for i := 0; i < len(text); i++ {
		switch ch := text[i]; {
		case ch == '\'' || ch == '"' || ch == '`' || ch == '[':
			closing := ch
			if ch == '[' {
				closing = ']'
			}
			j := strings.IndexByte(text[i+1:], closing)
			if j < 0 {
				return text, ""
			}
			i += j + 1
		case ch == '-' && strings.HasPrefix(text[i:], "--"):
			j := strings.IndexByte(text[i:], '\n')
			if j < 0 {
				return text, ""
			}
			i += j
		case ch == '/' && strings.HasPrefix(text[i:], "/*"):
			j := strings.Index(text[i+2:], "*/")
			if j < 0 {
				return text, ""
			}
			i += j + 3
		case ch == ';':
			return text[:i], text[i+1:]
		}
	}
	return text, ""
}

func (s *sqlCmd) Run(e *env) error {
	format, err := e.format(query.Text, query.Text, query.JSON, query.JSONL, query.CSV)
	if err != nil {
		return err
	}
	if err := checkReadOnly(s.Query); err != nil {
		return err
	}
	cat, err := e.open("")
	if err != nil {
		return err
	}
	defer cat.Close()
	rows, err := cat.Query(e.ctx, s.Query)
	if err != nil {
		return sqlError(e, err, 0)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return sqlError(e, err, 0)
	}
	// Rows are written as they come: memory stays flat however many there
	// are, and the first appear at once.
	out := newTableWriter(e.stdout, format, cols)
	n := 0
	for rows.Next() {
		if e.ctx.Err() != nil {
			break
		}
		vals, err := rows.Values()
		if err != nil {
			return sqlError(e, err, n)
		}
		if err := out.row(vals); err != nil {
			return err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return sqlError(e, err, n)
	}
	if e.ctx.Err() != nil {
		return sqlError(e, e.ctx.Err(), n)
	}
	return out.close()
}

// sqlError explains an error of the user's statement, n rows into it.
func sqlError(e *env, err error, n int) error {
	msg := err.Error()
	if i := strings.LastIndex(msg, " ("); i > 0 && strings.HasSuffix(msg, ")") {
		msg = msg[:i] // the driver's result code
	}
	msg = strings.TrimPrefix(msg, "SQL logic error: ")
	switch {
	case e.ctx.Err() != nil:
		return fmt.Errorf("%w after %d rows", errInterrupted, n)
	case strings.Contains(msg, "not authorized"):
		return refusedSQL("this statement")
	case strings.Contains(msg, "syntax error") || strings.Contains(msg, "incomplete input") || strings.Contains(msg, "unrecognized token"):
		return usagef("sql: not valid SQL: %s", msg)
	case strings.Contains(msg, "no such table") || strings.Contains(msg, "no such view"):
		return usagef("sql: %s; list the tables with: solcat sql \"SELECT name, type FROM sqlite_master ORDER BY name\"", msg)
	case strings.Contains(msg, "no such column") || strings.Contains(msg, "no such function") || strings.Contains(msg, "wrong number of arguments"):
		return usagef("sql: %s", msg)
	}
	return fmt.Errorf("sql: %w", catalog.Describe(e.cli.DB, err))
}

// tableWriter writes a result row by row in one of sql's formats.
type tableWriter struct {
	out    *bufio.Writer
	format query.Format
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

func newTableWriter(w io.Writer, format query.Format, cols []string) *tableWriter {
	t := &tableWriter{out: bufio.NewWriterSize(w, 1<<16), format: format, cols: cols}
	if format == query.CSV {
		t.csv = csv.NewWriter(t.out)
		t.csv.Write(cols)
	}
	return t
}

func (t *tableWriter) row(vals []any) error {
	t.rows++
	switch t.format {
	case query.JSON, query.JSONL:
		if t.format == query.JSON {
			if t.rows == 1 {
				t.out.WriteString("[\n  ")
			} else {
				t.out.WriteString(",\n  ")
			}
		}
		if err := writeJSONRow(t.out, t.cols, vals); err != nil {
			return err
		}
		if t.format == query.JSONL {
			t.out.WriteByte('\n')
		}
	case query.CSV:
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

func (t *tableWriter) flushHeld() {
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

func (t *tableWriter) writeText(r []string) {
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

func (t *tableWriter) close() error {
	switch t.format {
	case query.JSON:
		if t.rows == 0 {
			t.out.WriteString("[]\n")
		} else {
			t.out.WriteString("\n]\n")
		}
	case query.CSV:
		t.csv.Flush()
		if err := t.csv.Error(); err != nil {
			return err
		}
	case query.Text, "":
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
