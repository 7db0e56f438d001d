// Package usersql runs a user's statement on a catalog, read-only three
// times over: the statement is checked before SQLite sees it, SQLite's
// authorizer refuses every operation that is not a read as it compiles,
// and the connection is read-only. No value larger than MaxValueMB is made
// or read. It tells SQLite's faults apart by their result codes, but for
// those that share one (statementFault).
package usersql

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jmoiron/sqlx"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// readPragmas are pragmas that take an argument yet only read.
var readPragmas = map[string]bool{
	"table_info": true, "table_xinfo": true, "table_list": true, "index_list": true, "index_info": true,
	"index_xinfo": true, "foreign_key_list": true, "integrity_check": true, "quick_check": true,
}

// MaxValueMB is the largest string or blob, in MB (10^6 bytes), that a
// user's statement may make or read. A catalog's own values are far
// smaller (a solution block holds at most 4,000 bytes of cells, a block of
// packed classes 2,032), so every table reads whole; the limit keeps what
// one row costs to print bounded, where randomblob(1e9) or a group_concat
// over millions of rows would take gigabytes.
const MaxValueMB = 16

// ErrTooLarge means a user's statement made or read a value larger than
// MaxValueMB; SQLite itself refuses it, before it is made.
var ErrTooLarge = fmt.Errorf("a value larger than %d MB", MaxValueMB)

// Rows is the result of a user's read-only statement, read row by row.
type Rows struct {
	ctx  context.Context
	conn *sqlx.Conn
	rows *sqlx.Rows
	// length is the connection's own limit on a value's size, restored
	// when it goes back to the pool.
	length int
	vals   []value // what Values scans into
	dest   []any
}

// Query runs a user's statement on a connection of db on which SQLite itself
// refuses, while compiling, every operation that is not a read: the third
// layer under a read-only open and query_only. No string or blob larger
// than MaxValueMB is made or read (ErrTooLarge). Close the rows after use.
// The statement is checked first (checkStatement); errors SQLite finds in
// it, before or while it runs, are a *StatementError (an ErrBadSQL),
// ErrRefused or ErrTooLarge.
func Query(ctx context.Context, db *sqlx.DB, text string) (*Rows, error) {
	if err := checkStatement(text); err != nil {
		return nil, err
	}
	if p, ok := parameter(text); ok {
		return nil, fmt.Errorf("%w: it has a parameter, %s, and sql binds no values; write the value in its place", ErrBadSQL, p)
	}
	conn, length, err := queryConn(ctx, db)
	if err != nil {
		return nil, err
	}
	r := &Rows{ctx: ctx, conn: conn, length: length}
	if r.rows, err = conn.QueryxContext(ctx, text); err != nil {
		r.release()
		return nil, statementError(ctx, err)
	}
	return r, nil
}

// statementError says what SQLite found wrong with a user's statement, by
// its result code: SQLITE_ERROR is the statement's own fault (it does not
// compile, or it fails as it runs: malformed JSON, an integer overflow), a
// *StatementError; SQLITE_AUTH an operation the authorizer denied,
// SQLITE_TOOBIG a value over the limit. Other errors (a damaged file, I/O,
// an interrupt) are returned as they are.
func statementError(ctx context.Context, err error) error {
	var serr *sqlite.Error
	if err == nil || ctx.Err() != nil || !errors.As(err, &serr) {
		return err
	}
	switch serr.Code() & 0xff {
	case sqlite3.SQLITE_AUTH:
		return refused("this statement")
	case sqlite3.SQLITE_TOOBIG:
		return ErrTooLarge
	case sqlite3.SQLITE_ERROR:
		msg := serr.Error()
		if i := strings.LastIndex(msg, " ("); i > 0 && strings.HasSuffix(msg, ")") {
			msg = msg[:i] // the driver's result code
		}
		msg = strings.TrimPrefix(msg, "SQL logic error: ") // the driver's name of SQLITE_ERROR
		return &StatementError{Fault: statementFault(msg), Message: msg}
	}
	return err
}

// ErrNotSQL means SQLite's parser refused a user's statement: a syntax
// error, a token it does not know, input that ends too soon.
var ErrNotSQL = errors.New("not valid SQL")

// ErrNoSuchTable means a user's statement names a table or view that the
// catalog does not have.
var ErrNoSuchTable = errors.New("no such table")

// StatementError is what SQLite found wrong with a user's statement as it
// compiled or ran it (SQLITE_ERROR). It is an ErrBadSQL, and also its
// Fault where SQLite says which it is.
type StatementError struct {
	Fault   error  // ErrNotSQL, ErrNoSuchTable, or nil for any other fault
	Message string // SQLite's words
}

func (e *StatementError) Error() string {
	if e.Fault == ErrNotSQL {
		return ErrBadSQL.Error() + ": " + ErrNotSQL.Error() + ": " + e.Message
	}
	return ErrBadSQL.Error() + ": " + e.Message
}

func (e *StatementError) Unwrap() []error {
	if e.Fault == nil {
		return []error{ErrBadSQL}
	}
	return []error{ErrBadSQL, e.Fault}
}

// statementFault tells apart, by SQLite's words, the faults of a
// statement that its result codes do not: a syntax error, an unknown token
// and input that ends too soon (the parser's), a missing table, a missing
// column or function and a value a function refuses all have the code
// SQLITE_ERROR, with no extended code (SQLite has those only for a missing
// collation, a retry and a snapshot). The words are SQLite's own, written
// in its source (tokenize.c, build.c); TestStatementErrors holds them for
// the SQLite built in, so a new SQLite that words them otherwise fails the
// test rather than a user's statement.
func statementFault(msg string) error {
	switch {
	case strings.HasPrefix(msg, "near ") && strings.HasSuffix(msg, ": syntax error"),
		strings.HasPrefix(msg, "unrecognized token: "), msg == "incomplete input":
		return ErrNotSQL
	case strings.HasPrefix(msg, "no such table: "):
		return ErrNoSuchTable
	}
	return nil
}

// Columns names the result's columns.
func (r *Rows) Columns() ([]string, error) { return r.rows.Columns() }

// Next moves to the next row; false at the end or on an error (see Err).
func (r *Rows) Next() bool { return r.rows.Next() }

// Values returns the current row's values: int64, float64, string, []byte
// or nil. A blob is the driver's own copy, made for this row: it is not
// copied again, so that a row of a large value costs the value once in Go.
func (r *Rows) Values() ([]any, error) {
	if r.dest == nil {
		cols, err := r.rows.Columns()
		if err != nil {
			return nil, err
		}
		r.vals, r.dest = make([]value, len(cols)), make([]any, len(cols))
		for i := range r.vals {
			r.dest[i] = &r.vals[i]
		}
	}
	if err := r.rows.Scan(r.dest...); err != nil {
		return nil, err
	}
	out := make([]any, len(r.vals))
	for i, v := range r.vals {
		out[i] = v.v
	}
	return out, nil
}

// value takes a column's value as the driver gives it, where database/sql
// would copy a blob scanned into an any.
type value struct{ v any }

func (v *value) Scan(src any) error {
	v.v = src
	return nil
}

// Err is the error that ended the rows, if any, as Query states it.
func (r *Rows) Err() error { return statementError(r.ctx, r.rows.Err()) }

// Close ends the query.
func (r *Rows) Close() {
	r.rows.Close()
	r.release()
}

// release gives the connection back to the pool with its own limit.
func (r *Rows) release() {
	sqlite.Limit(r.conn.Conn, sqlite3.SQLITE_LIMIT_LENGTH, r.length)
	r.conn.Close()
}

// queryConn returns a connection for a user's statement, with the
// authorizer and the value limit set, and the limit it had before.
func queryConn(ctx context.Context, db *sqlx.DB) (*sqlx.Conn, int, error) {
	conn, err := db.Connx(ctx)
	if err != nil {
		return nil, 0, err
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
	var length int
	if err == nil {
		length, err = sqlite.Limit(conn.Conn, sqlite3.SQLITE_LIMIT_LENGTH, MaxValueMB*1_000_000)
	}
	if err != nil {
		conn.Close()
		return nil, 0, err
	}
	return conn, length, nil
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

// ErrNoStatement means a user's text holds no statement: it is blank, or
// comments only.
var ErrNoStatement = fmt.Errorf("%w: no statement", ErrBadSQL)

// refused is the one error of every statement refused for writing.
func refused(what string) error {
	return fmt.Errorf("%w (SELECT, WITH, VALUES, EXPLAIN, PRAGMA reads); %s would change the catalog", ErrRefused, what)
}

// checkStatement refuses text that is not exactly one statement that
// reads, before SQLite sees it. The connection Query uses is read-only as
// well; this gives the clearer message.
func checkStatement(text string) error {
	stmt, rest := splitStatement(text)
	if strings.TrimSpace(rest) != "" {
		return fmt.Errorf("%w: one statement at a time; found more after %q", ErrBadSQL, strings.TrimSpace(stmt))
	}
	fields := strings.Fields(strings.ToUpper(stripComments(stmt)))
	if len(fields) == 0 {
		return ErrNoStatement
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

// parameter returns the first parameter of a statement (?, ?NNN, :name,
// @name, $name) outside its strings, quoted names and comments. sql binds
// no values, so SQLite would run such a statement with NULL in its place,
// or the driver refuse it with its own words.
func parameter(stmt string) (string, bool) {
	token := func(i int) string {
		j := i + 1
		for j < len(stmt) && idChar(stmt[j]) {
			j++
		}
		return stmt[i:j]
	}
	for i := 0; i < len(stmt); i++ {
		switch ch := stmt[i]; {
		case ch == '\'' || ch == '"' || ch == '`' || ch == '[':
			closing := ch
			if ch == '[' {
				closing = ']'
			}
			j := strings.IndexByte(stmt[i+1:], closing)
			if j < 0 {
				return "", false
			}
			i += j + 1
		case ch == '-' && strings.HasPrefix(stmt[i:], "--"):
			j := strings.IndexByte(stmt[i:], '\n')
			if j < 0 {
				return "", false
			}
			i += j
		case ch == '/' && strings.HasPrefix(stmt[i:], "/*"):
			j := strings.Index(stmt[i+2:], "*/")
			if j < 0 {
				return "", false
			}
			i += j + 3
		case ch == '?':
			return token(i), true
		case (ch == ':' || ch == '@' || ch == '$') && (i == 0 || !idChar(stmt[i-1])) && i+1 < len(stmt) && idChar(stmt[i+1]):
			// $ inside a name (a$b) is part of it, as SQLite reads it.
			return token(i), true
		}
	}
	return "", false
}

// idChar reports whether SQLite takes c as part of a name.
func idChar(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
