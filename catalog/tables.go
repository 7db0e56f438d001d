package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"

	"solcat/catalog/pagefile"
)

// A scan reads a table's rows by rowid ranges, from the file's pages
// (package pagefile) where it can and through SQLite where it cannot: a
// catalog read through its log, or a page the page reader does not read
// (it then goes on through SQLite from the first row it did not hand
// over, so that SQLite reads, or reports as damaged, what the page reader
// does not). Both hand over a row's columns as pagefile values, valid
// during the call.

// tableRef names one table a scan reads: its name, its columns (after
// the rowid) as SQL selects them, and its root page for the page reader.
type tableRef struct {
	name    string
	columns []string // as in the table, in order: the page reader reads the first len(columns)+1 (the rowid alias is the first)
	root    uint32   // 0: read through SQL
}

// fileReader reads a catalog's tables for one scan: the file's pages
// where it can, else SQL. Its page file is shared by the scan's
// goroutines, each with a buffer of its own (a pageBuffer).
type fileReader struct {
	c     *Catalog
	pf    *pagefile.File // nil: SQL only
	conn  *sql.Conn      // held for the scan: its read byte keeps solcat's writers out
	start fileState      // the file as the scan began
}

// scanBufferBytes is each goroutine's read buffer: runs of pages up to
// this long are read with one system call, and it stays in the CPU's
// second-level cache while the scan reads it.
const scanBufferBytes = 256 << 10

// openReader opens the catalog's file for a scan of tables, whose root
// pages it looks up (through conn, which the scan holds throughout). A
// reader of a catalog at rest reads its pages; one read through its log,
// or a file this package does not read, reads through SQL.
func (c *Catalog) openReader(ctx context.Context, sqlOnly bool, tables ...*tableRef) (*fileReader, error) {
	conn, err := c.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	// A one-off command reads the file as it opened it; a long-lived
	// reader (the web server, which lets builds copy their logs in between
	// its queries) reads it as it is when the scan begins.
	r := &fileReader{c: c, conn: conn, start: c.opened}
	if c.stopWatch != nil {
		r.start = c.fileState()
	}
	if !c.immutable || c.lease == nil || c.lease.Off() || sqlOnly {
		return r, nil
	}
	// With the root pages, the schema cookie and the number of pages of the
	// file SQLite reads: the file opened must be that one (not a file
	// renamed over it since).
	var cookie, pages int64
	if err := conn.QueryRowContext(ctx, "SELECT (SELECT schema_version FROM pragma_schema_version), (SELECT page_count FROM pragma_page_count)").Scan(&cookie, &pages); err != nil {
		r.close()
		return nil, err
	}
	for _, t := range tables {
		var root int64
		err := conn.QueryRowContext(ctx, "SELECT rootpage FROM sqlite_schema WHERE type = 'table' AND name = ?", t.name).Scan(&root)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			r.close()
			return nil, err
		}
		if root >= 1 && root <= 1<<32-1 {
			t.root = uint32(root)
		}
	}
	if c.watched == nil {
		return r, nil // read through SQL
	}
	// The file SQLite opened, not whatever has been renamed over its name
	// since.
	pf, err := pagefile.Of(c.watched)
	switch {
	case errors.Is(err, pagefile.ErrChanged):
		r.close()
		return nil, c.changedError()
	case err != nil:
		return r, nil // read through SQL
	}
	if pf.SchemaCookie() != uint32(cookie) || int64(pf.Pages()) != pages {
		pf.Close()
		r.close()
		return nil, c.changedError()
	}
	r.pf = pf
	return r, nil
}

func (r *fileReader) close() {
	if r.pf != nil {
		r.pf.Close()
	}
	r.conn.Close()
}

// finish ends a scan that returned err: a file that changed under it
// makes any outcome a ChangedError, for what it read may not be the
// catalog's.
func (r *fileReader) finish(err error) error {
	if r.pf != nil && r.pf.Unchanged() != nil || errors.Is(err, pagefile.ErrChanged) || r.c.fileState() != r.start {
		return r.c.changedError()
	}
	return err
}

// pageBuffer is one goroutine's buffers for reading pages: kept from one
// piece of a scan to the next, so that a scan's memory is allocated once.
type pageBuffer struct {
	rd     *pagefile.Reader
	leaves []pagefile.Leaf
	pages  []uint32
}

// pageBuffer makes one goroutine's buffers (nil when the scan reads
// through SQL).
func (r *fileReader) pageBuffer() *pageBuffer {
	if r.pf == nil {
		return nil
	}
	return &pageBuffer{rd: r.pf.NewReader(scanBufferBytes)}
}

// rows calls fn, in rowid order, for each row of t with a rowid above lo
// and at most hi, with its columns (the rowid alias first, as NULL) in
// cols. With only (sorted) it hands over only those rowids, and reads only
// the pages that hold them. buf is the calling goroutine's page buffer
// (nil reads through SQL).
func (r *fileReader) rows(ctx context.Context, buf *pageBuffer, t *tableRef, lo, hi int64, only []int64, cols []pagefile.Value, fn func(rowid int64) error) error {
	next := lo
	if buf != nil && t.root != 0 {
		err := r.pageRows(ctx, buf, t, lo, hi, only, cols, func(rowid int64) error {
			if err := fn(rowid); err != nil {
				return err
			}
			next = rowid
			return nil
		})
		if !errors.Is(err, pagefile.ErrNotPlain) {
			return err
		}
		if r.pf.Unchanged() != nil {
			return pagefile.ErrChanged
		}
	}
	for len(only) > 0 && only[0] <= next {
		only = only[1:]
	}
	return r.sqlRows(ctx, t, next, hi, only, cols, fn)
}

// pageRows is rows read from the file's pages.
func (r *fileReader) pageRows(ctx context.Context, buf *pageBuffer, t *tableRef, lo, hi int64, only []int64, cols []pagefile.Value, fn func(rowid int64) error) error {
	leaves, err := r.pf.Leaves(t.root, lo, hi, only, buf.leaves[:0])
	buf.leaves = leaves
	if err != nil {
		return err
	}
	pages := buf.pages[:0]
	k := 0
	for _, l := range leaves {
		if only != nil {
			for k < len(only) && only[k] <= l.Lo {
				k++
			}
			if k == len(only) {
				break
			}
			if only[k] > l.Hi {
				continue
			}
		}
		pages = append(pages, l.Page)
	}
	buf.pages = pages
	k = 0
	var count int
	return buf.rd.Each(pages, func(_ uint32, p pagefile.Page) error {
		if count++; count%64 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		return r.pf.Rows(p, lo, hi, func(rowid int64, rec []byte) error {
			if only != nil {
				for k < len(only) && only[k] < rowid {
					k++
				}
				if k == len(only) || only[k] != rowid {
					return nil
				}
			}
			if err := pagefile.Record(rec, cols); err != nil {
				return err
			}
			return fn(rowid)
		})
	})
}

// sqlRows is rows read through SQLite.
func (r *fileReader) sqlRows(ctx context.Context, t *tableRef, lo, hi int64, only []int64, cols []pagefile.Value, fn func(rowid int64) error) error {
	if only != nil && len(only) == 0 {
		return nil
	}
	// The scan's own connection: the pool may have no other to give while
	// other scans hold theirs. Its goroutines take turns on it.
	rows, err := r.conn.QueryContext(ctx, "SELECT rowid, "+strings.Join(t.columns, ", ")+" FROM "+t.name+" WHERE rowid > ? AND rowid <= ? ORDER BY rowid", lo, hi)
	if err != nil {
		return err
	}
	defer rows.Close()
	raw := make([]sql.RawBytes, len(t.columns))
	dest := make([]any, len(raw)+1)
	var rowid int64
	dest[0] = &rowid
	for i := range raw {
		dest[i+1] = &raw[i]
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		if only != nil {
			for len(only) > 0 && only[0] < rowid {
				only = only[1:]
			}
			if len(only) == 0 {
				break
			}
			if only[0] != rowid {
				continue
			}
		}
		cols[0] = pagefile.Value{Null: true}
		for i, b := range raw {
			cols[i+1] = sqlValue(b)
		}
		if err := fn(rowid); err != nil {
			return err
		}
	}
	return rows.Err()
}

// sqlValue reads a column scanned as raw bytes: an integer column comes as
// its decimal text, which the scans that read integers parse.
func sqlValue(b sql.RawBytes) pagefile.Value {
	if b == nil {
		return pagefile.Value{Null: true}
	}
	return pagefile.Value{Bytes: b}
}

// intColumn reads an integer column of a row from either reader.
func intColumn(v pagefile.Value) (int64, bool) {
	if v.IsInt {
		return v.Int, true
	}
	if v.Null || len(v.Bytes) == 0 || len(v.Bytes) > 19 {
		return 0, false
	}
	var n int64
	neg := v.Bytes[0] == '-'
	digits := v.Bytes
	if neg {
		digits = digits[1:]
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, len(digits) > 0
}

// ChangedError means the catalog file changed while solcat read it: it
// was cut short, replaced or written by another program, so what was read
// may not be the catalog's.
type ChangedError struct{ Path string }

func (e *ChangedError) Error() string {
	return fmt.Sprintf("catalog %s changed while it was being read (another program cut it short, replaced or wrote it)", e.Path)
}

func (c *Catalog) changedError() error { return &ChangedError{Path: c.path} }

// watchFile keeps, for a reader of a catalog at rest, the file open and
// its state as opened, so that Changed can tell whether another program
// has cut short, replaced or written the file since.
func (c *Catalog) watchFile() {
	f, err := os.Open(c.file)
	if err != nil {
		return
	}
	c.watched = f
	c.opened = c.fileState()
}

// fileState is a catalog file's header and length, read through the
// descriptor watchFile keeps (zero without one): SQLite changes the header
// with every write, so another header means another content.
type fileState struct {
	header [100]byte
	size   int64
}

func (c *Catalog) fileState() fileState {
	var st fileState
	if c.watched == nil {
		return st
	}
	if info, err := c.watched.Stat(); err == nil {
		st.size = info.Size()
	}
	if _, err := c.watched.ReadAt(st.header[:], 0); err != nil {
		st.size = -1
	}
	return st
}

// Changed is a *ChangedError if the catalog file, open to read at rest, is
// no longer as it was when opened, and nil if it is. A one-off command
// that met an error asks it, so that what it read from a file that changed
// under it is never given as an answer or as damage. (A scan checks the
// file as it was when the scan began: a long-lived reader, such as the web
// server, sees the builds that finish between its queries.)
func (c *Catalog) Changed() error {
	if c.changed() {
		return c.changedError()
	}
	return nil
}

// changed reports whether the file is no longer as it was when opened.
func (c *Catalog) changed() bool {
	if c.closed {
		return c.changedAtClose
	}
	return c.watched != nil && c.fileState() != c.opened
}
