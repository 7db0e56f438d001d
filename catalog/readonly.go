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

// QueryConn returns a connection for user-written SQL on which SQLite itself
// refuses, while compiling, every operation that is not a read: the third
// layer under a read-only open and query_only. Close it after use.
func (c *Catalog) QueryConn(ctx context.Context) (*sqlx.Conn, error) {
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
