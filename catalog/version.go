package catalog

import (
	"context"
	"errors"
	"fmt"

	"github.com/jmoiron/sqlx"
	"github.com/pressly/goose/v3"

	"solcat/migrations"
)

// The migrations applied to a catalog are recorded by goose in a table of
// solcat's name. Catalogs made before it had that name have goose's own,
// goose_db_version: a writer renames it when it opens the catalog, a
// reader (which writes nothing) reads it by its old name.
const (
	versionTable    = "solcat_schema_version"
	oldVersionTable = "goose_db_version"
)

// ErrNewerSchema means the catalog was written by a newer solcat.
var ErrNewerSchema = errors.New("catalog schema is newer than this solcat")

// newProvider runs the embedded migrations on db, recording them in the
// version table.
func newProvider(db *sqlx.DB) (*goose.Provider, error) {
	return goose.NewProvider(goose.DialectSQLite3, db.DB, migrations.FS(), goose.WithTableName(versionTable))
}

// versionTableOf names the catalog's version table: solcat's name, or
// goose's in a catalog made before it that no writer has opened since;
// empty if there is none (an empty file).
func (c *Catalog) versionTableOf(ctx context.Context) (string, error) {
	for _, name := range []string{versionTable, oldVersionTable} {
		if has, err := hasTable(ctx, c.db, name); err != nil || has {
			return name, err
		}
	}
	return "", nil
}

// schemaVersion is the highest migration applied to the catalog.
func (c *Catalog) schemaVersion(ctx context.Context) (int64, error) {
	table, err := c.versionTableOf(ctx)
	if err != nil || table == "" {
		return 0, err
	}
	var v int64
	err = c.db.GetContext(ctx, &v, `SELECT coalesce(max(version_id), 0) FROM `+table+` WHERE is_applied`)
	return v, err
}

// checkVersion refuses a catalog whose schema is newer than the migrations
// this program embeds: reading or writing it could lose what it holds.
func (c *Catalog) checkVersion(ctx context.Context) error {
	version, err := c.schemaVersion(ctx)
	if err != nil {
		return err
	}
	if latest := migrations.Latest(); version > latest {
		return fmt.Errorf("%s: %w: it has schema version %d, this solcat knows versions up to %d", c.path, ErrNewerSchema, version, latest)
	}
	return nil
}

// renameVersionTable gives the version table of a catalog made before it
// had solcat's name that name, keeping its rows. SQLite renames a table
// in one step. It would check every view as it does, and refuse if one
// names a table that is gone (a damaged catalog, which a build mends):
// legacy_alter_table renames the table alone.
func (c *Catalog) renameVersionTable(ctx context.Context) error {
	if table, err := c.versionTableOf(ctx); err != nil || table != oldVersionTable {
		return err
	}
	conn, err := c.db.Connx(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA legacy_alter_table = ON"); err != nil {
		return err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "PRAGMA legacy_alter_table = OFF")
	if _, err := conn.ExecContext(ctx, "ALTER TABLE "+oldVersionTable+" RENAME TO "+versionTable); err != nil {
		return fmt.Errorf("cannot rename the table %s to %s: %w", oldVersionTable, versionTable, err)
	}
	return nil
}
