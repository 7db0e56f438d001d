package catalog

import (
	"context"
	"fmt"

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
func (c *Catalog) Query(ctx context.Context, text string) (*Rows, error) {
	conn, err := c.queryConn(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := conn.QueryxContext(ctx, text)
	if err != nil {
		conn.Close()
		return nil, err
	}
	return &Rows{conn: conn, rows: rows}, nil
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
