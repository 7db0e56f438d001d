package catalog

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"
	"modernc.org/sqlite"
)

// readPragmas are pragmas that take an argument yet only read.
var readPragmas = map[string]bool{
	"table_info": true, "table_xinfo": true, "table_list": true, "index_list": true, "index_info": true,
	"index_xinfo": true, "foreign_key_list": true, "integrity_check": true, "quick_check": true,
}

// Rows is the result of a user's read-only statement, read row by row.
type Rows struct {
	conn *sqlx.Conn
	rows *sqlx.Rows
}

// Query runs a user's statement on a connection on which SQLite itself
// refuses, while compiling, every operation that is not a read: the third
// layer under a read-only open and query_only. Close the rows after use.
// The statement is checked first (CheckStatement); errors SQLite finds in
// it wrap ErrBadSQL or ErrRefused.
func (c *Catalog) Query(ctx context.Context, text string) (*Rows, error) {
	if err := CheckStatement(text); err != nil {
		return nil, err
	}
	conn, err := c.queryConn(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := conn.QueryxContext(ctx, text)
	if err != nil {
		conn.Close()
		return nil, statementError(ctx, err)
	}
	return &Rows{conn: conn, rows: rows}, nil
}

// statementError says what SQLite found wrong with a user's statement;
// other errors are returned as they are.
func statementError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return err
	}
	msg := err.Error()
	if i := strings.LastIndex(msg, " ("); i > 0 && strings.HasSuffix(msg, ")") {
		msg = msg[:i] // the driver's result code
	}
	msg = strings.TrimPrefix(msg, "SQL logic error: ")
	switch {
	case strings.Contains(msg, "not authorized"):
		return refused("this statement")
	case strings.Contains(msg, "syntax error") || strings.Contains(msg, "incomplete input") || strings.Contains(msg, "unrecognized token"):
		return fmt.Errorf("%w: not valid SQL: %s", ErrBadSQL, msg)
	case strings.Contains(msg, "no such") || strings.Contains(msg, "wrong number of arguments") || strings.Contains(msg, "ambiguous column"):
		return fmt.Errorf("%w: %s", ErrBadSQL, msg)
	}
	return err
}

// Columns names the result's columns.
func (r *Rows) Columns() ([]string, error) { return r.rows.Columns() }

// Next moves to the next row; false at the end or on an error (see Err).
func (r *Rows) Next() bool { return r.rows.Next() }

// Values returns the current row's values: int64, float64, string, []byte
// or nil.
func (r *Rows) Values() ([]any, error) { return r.rows.SliceScan() }

// Err is the error that ended the rows, if any.
func (r *Rows) Err() error { return r.rows.Err() }

// Close ends the query.
func (r *Rows) Close() {
	r.rows.Close()
	r.conn.Close()
}

func (c *Catalog) queryConn(ctx context.Context) (*sqlx.Conn, error) {
	conn, err := c.db.Connx(ctx)
	if err != nil {
		return nil, err
	}
	err = conn.Raw(func(driverConn any) error {
		registerer, ok := driverConn.(sqlite.AuthorizerRegisterer)
		if !ok {
			return fmt.Errorf("the SQLite driver offers no authorizer")
		}
		return registerer.RegisterAuthorizer(func(action sqlite.AuthorizerActionCode, arg1, arg2, _, _ string) sqlite.AuthorizerReturnCode {
			switch action {
			case sqlite.AuthSelect, sqlite.AuthRead, sqlite.AuthFunction, sqlite.AuthRecursive:
				return sqlite.AuthorizerOK
			case sqlite.AuthPragma:
				if arg2 == "" || readPragmas[arg1] {
					return sqlite.AuthorizerOK
				}
			}
			return sqlite.AuthorizerDeny
		})
	})
	if err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

var readKeywords = map[string]bool{"SELECT": true, "WITH": true, "VALUES": true, "EXPLAIN": true, "PRAGMA": true}

// writeKeywords begin the SQLite statements that are not reads.
var writeKeywords = map[string]bool{"ALTER": true, "ANALYZE": true, "ATTACH": true, "BEGIN": true, "COMMIT": true, "CREATE": true,
	"DELETE": true, "DETACH": true, "DROP": true, "END": true, "INSERT": true, "REINDEX": true, "RELEASE": true, "REPLACE": true,
	"ROLLBACK": true, "SAVEPOINT": true, "UPDATE": true, "VACUUM": true}

// actionPragmas act on the catalog even without an argument.
var actionPragmas = map[string]bool{"optimize": true, "wal_checkpoint": true, "incremental_vacuum": true, "shrink_memory": true}

// ErrRefused means a user's statement would change the catalog.
var ErrRefused = errors.New("only read-only statements are run")

// ErrBadSQL means a user's statement is not one valid SQLite statement
// that this catalog can run: a syntax error, no statement, more than one,
// a table or column that is not there.
var ErrBadSQL = errors.New("not a statement this catalog can run")

// refused is the one error of every statement refused for writing.
func refused(what string) error {
	return fmt.Errorf("%w (SELECT, WITH, VALUES, EXPLAIN, PRAGMA reads); %s would change the catalog", ErrRefused, what)
}

// CheckStatement refuses text that is not exactly one statement that
// reads, before SQLite sees it. The connection Query uses is read-only as
// well; this gives the clearer message.
func CheckStatement(text string) error {
	stmt, rest := splitStatement(text)
	if strings.TrimSpace(rest) != "" {
		return fmt.Errorf("%w: one statement at a time; found more after %q", ErrBadSQL, strings.TrimSpace(stmt))
	}
	fields := strings.Fields(strings.ToUpper(stripComments(stmt)))
	if len(fields) == 0 {
		return fmt.Errorf("%w: no statement", ErrBadSQL)
	}
	keyword := strings.TrimLeft(fields[0], "(")
	if i := strings.IndexAny(keyword, "(;"); i > 0 {
		keyword = keyword[:i]
	}
	switch {
	case writeKeywords[keyword]:
		return refused(keyword)
	case !readKeywords[keyword]:
		return fmt.Errorf("%w: %q is not valid SQL: a statement begins with SELECT, WITH, VALUES, EXPLAIN or PRAGMA", ErrBadSQL, strings.TrimSpace(stmt))
	}
	if keyword == "PRAGMA" {
		if strings.Contains(stmt, "=") {
			return refused("a PRAGMA assignment")
		}
		name := strings.ToLower(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(stripComments(stmt))[len("PRAGMA"):], " ")))
		if i := strings.IndexAny(name, "( \t\n;"); i >= 0 {
			name = name[:i]
		}
		if _, after, ok := strings.Cut(name, "."); ok { // schema.pragma
			name = after
		}
		if actionPragmas[name] {
			return refused("PRAGMA " + name)
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
