package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

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

// checkReadOnly refuses text that is not exactly one statement that reads.
// The connection is read-only as well; this gives the clearer message.
func checkReadOnly(text string) error {
	stmt, rest := splitStatement(text)
	if strings.TrimSpace(rest) != "" {
		return usagef("sql takes one statement, found more after %q; run them one at a time", strings.TrimSpace(stmt))
	}
	fields := strings.Fields(strings.ToUpper(stmt))
	if len(fields) == 0 {
		return usagef("sql needs a query, for example: solcat sql \"SELECT * FROM puzzles\"")
	}
	keyword := strings.TrimLeft(fields[0], "(")
	if !readKeywords[keyword] {
		return usagef("sql runs read-only queries (SELECT, WITH, VALUES, EXPLAIN, PRAGMA reads); %s would change the catalog", keyword)
	}
	if keyword == "PRAGMA" && strings.Contains(stmt, "=") {
		return usagef("sql refuses PRAGMA assignments, which change the catalog; query a pragma without '='")
	}
	return nil
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
	cat, err := catalog.Open(e.ctx, e.cli.DB)
	if err != nil {
		return err
	}
	defer cat.Close()
	conn, err := cat.QueryConn(e.ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	rows, err := conn.QueryxContext(e.ctx, s.Query)
	if err != nil {
		if strings.Contains(err.Error(), "not authorized") {
			return usagef("sql runs read-only queries; SQLite refused this one: %v", err)
		}
		return fmt.Errorf("sql: %w", err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	var table [][]any
	for rows.Next() {
		vals, err := rows.SliceScan()
		if err != nil {
			return err
		}
		table = append(table, vals)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("sql: %w", err)
	}
	return writeTable(e, format, cols, table)
}

func writeTable(e *env, format query.Format, cols []string, table [][]any) error {
	switch format {
	case query.JSON, query.JSONL:
		var b strings.Builder
		for i, row := range table {
			switch {
			case format == query.JSONL:
			case i == 0:
				b.WriteString("[\n  ")
			default:
				b.WriteString(",\n  ")
			}
			if err := writeJSONRow(&b, cols, row); err != nil {
				return err
			}
			if format == query.JSONL {
				b.WriteString("\n")
			}
		}
		if format == query.JSON {
			if len(table) == 0 {
				b.WriteString("[]\n")
			} else {
				b.WriteString("\n]\n")
			}
		}
		_, err := io.WriteString(e.stdout, b.String())
		return err
	case query.CSV:
		w := csv.NewWriter(e.stdout)
		w.Write(cols)
		for _, row := range table {
			w.Write(textRow(row))
		}
		w.Flush()
		return w.Error()
	default:
		w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(w, strings.Join(cols, "\t"))
		for _, row := range table {
			fmt.Fprintln(w, strings.Join(textRow(row), "\t"))
		}
		return w.Flush()
	}
}

// writeJSONRow writes one row as a JSON object with its keys in column
// order; blobs become arrays of their byte values.
func writeJSONRow(b *strings.Builder, cols []string, row []any) error {
	b.WriteByte('{')
	for j, v := range row {
		if blob, ok := v.([]byte); ok {
			nums := make([]int, len(blob))
			for k, x := range blob {
				nums[k] = int(x)
			}
			v = nums
		}
		key, _ := json.Marshal(cols[j])
		val, err := json.Marshal(v)
		if err != nil {
			return err
		}
		if j > 0 {
			b.WriteByte(',')
		}
		b.Write(key)
		b.WriteByte(':')
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
			parts := make([]string, len(v))
			for k, x := range v {
				parts[k] = strconv.Itoa(int(x))
			}
			out[i] = strings.Join(parts, " ")
		default:
			out[i] = fmt.Sprint(v)
		}
	}
	return out
}
