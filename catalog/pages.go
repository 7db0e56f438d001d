package catalog

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime/debug"
)

// A reader of an immutable catalog reads the solution blocks' table from
// the mapped file itself, as SQLite's file format lays it out
// (https://www.sqlite.org/fileformat2.html): the table's b-tree pages are
// walked and each row's columns found in place, without a copy and
// without SQLite's row machinery, which costs about 2 µs a row, most of a
// scan's time at one 4 KiB block a row. Only what that format fixes is
// relied on; anything else (a row spilling onto overflow pages, a page
// that is not a table page) makes the reader stop, and the scan goes on
// through SQL from the first block it did not hand over, so that SQLite
// reads, or reports as damaged, what the page reader does not.

// errNotPlain is the page reader stopping at something it does not read.
var errNotPlain = errors.New("not a plain table page")

// mapCatalogPages maps a catalog file for the page reader (a test reads a
// damaged copy instead).
var mapCatalogPages = mapPages

// pageFile is a catalog file's bytes, mapped read-only, as pages.
type pageFile struct {
	data     []byte
	pageSize int
	usable   int // pageSize less the bytes reserved at the end of each page
	unmap    func() error
}

// newPageFile reads the header of a mapped SQLite file.
func newPageFile(data []byte, unmap func() error) (*pageFile, error) {
	if len(data) < 100 || string(data[:16]) != "SQLite format 3\x00" {
		return nil, errNotPlain
	}
	size := int(binary.BigEndian.Uint16(data[16:]))
	if size == 1 {
		size = 65536
	}
	// Text must be UTF-8 (encoding 1) for class_syms to be read as bytes.
	if size < 512 || size&(size-1) != 0 || binary.BigEndian.Uint32(data[56:]) != 1 || size-int(data[20]) < 480 {
		return nil, errNotPlain
	}
	return &pageFile{data: data, pageSize: size, usable: size - int(data[20]), unmap: unmap}, nil
}

func (f *pageFile) close() error {
	if f.unmap == nil {
		return nil
	}
	return f.unmap()
}

// page returns page n (1-based) and where its b-tree header starts (page 1
// begins with the file header).
func (f *pageFile) page(n uint32) (p []byte, header int, err error) {
	start := (int64(n) - 1) * int64(f.pageSize)
	if n == 0 || start+int64(f.pageSize) > int64(len(f.data)) {
		return nil, 0, errNotPlain
	}
	if n == 1 {
		header = 100
	}
	return f.data[start : start+int64(f.usable)], header, nil
}

// varint reads an SQLite variable-length integer: big-endian groups of 7
// bits, the high bit set on all but the last; a ninth byte gives 8 bits.
func varint(b []byte) (v uint64, n int) {
	for i := 0; i < 8; i++ {
		if i >= len(b) {
			return 0, 0
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	if len(b) < 9 {
		return 0, 0
	}
	return v<<8 | uint64(b[8]), 9
}

// maxTreeDepth bounds the walk of a damaged file whose pages loop.
const maxTreeDepth = 24

// walk calls fn, in rowid order, for each row of the table b-tree at page
// n with a rowid above lo and at most hi, with the row's payload (its
// record) in place. A row whose payload does not lie whole on its page, or
// a page that is not a table page, stops it with errNotPlain.
func (f *pageFile) walk(n uint32, lo, hi int64, depth int, fn func(int64, []byte) error) error {
	p, h, err := f.page(n)
	if err != nil || depth > maxTreeDepth || h+12 > len(p) {
		return errNotPlain
	}
	cells := int(binary.BigEndian.Uint16(p[h+3:]))
	switch p[h] {
	case 0x05: // interior: child i holds the rowids up to key i, the right-most child the rest
		ptrs := h + 12
		if ptrs+2*cells > len(p) {
			return errNotPlain
		}
		for i := range cells {
			at := int(binary.BigEndian.Uint16(p[ptrs+2*i:]))
			if at+5 > len(p) {
				return errNotPlain
			}
			key, k := varint(p[at+4:])
			if k == 0 {
				return errNotPlain
			}
			if int64(key) > lo {
				if err := f.walk(binary.BigEndian.Uint32(p[at:]), lo, hi, depth+1, fn); err != nil {
					return err
				}
			}
			if int64(key) >= hi {
				return nil
			}
		}
		return f.walk(binary.BigEndian.Uint32(p[h+8:]), lo, hi, depth+1, fn)
	case 0x0d: // leaf: payload size, rowid, payload
		ptrs := h + 8
		if ptrs+2*cells > len(p) {
			return errNotPlain
		}
		// The most payload a leaf keeps on its page; beyond it, overflow pages.
		maxLocal := uint64(f.usable - 35)
		for i := range cells {
			at := int(binary.BigEndian.Uint16(p[ptrs+2*i:]))
			if at >= len(p) {
				return errNotPlain
			}
			size, k := varint(p[at:])
			rowid, r := varint(p[at+k:])
			if k == 0 || r == 0 || size > maxLocal {
				return errNotPlain
			}
			start := at + k + r
			if start+int(size) > len(p) {
				return errNotPlain
			}
			id := int64(rowid)
			if id <= lo {
				continue
			}
			if id > hi {
				return nil
			}
			if err := fn(id, p[start:start+int(size)]); err != nil {
				return err
			}
		}
		return nil
	}
	return errNotPlain
}

// recordColumns finds the columns of a record (a row's payload) in place:
// a blob or text column is its bytes, NULL is nil. A column of another
// type, or a record with fewer columns than cols, is errNotPlain.
func recordColumns(rec []byte, cols [][]byte) error {
	hsize, n := varint(rec)
	if n == 0 || hsize > uint64(len(rec)) {
		return errNotPlain
	}
	at, body := n, int(hsize)
	for i := range cols {
		if at >= int(hsize) {
			return errNotPlain
		}
		t, k := varint(rec[at:int(hsize)])
		if k == 0 {
			return errNotPlain
		}
		at += k
		switch {
		case t == 0:
			cols[i] = nil
		case t >= 12:
			if t > uint64(2*len(rec)+13) {
				return errNotPlain // longer than the record: damaged
			}
			size := int((t - 12) / 2)
			if body+size > len(rec) {
				return errNotPlain
			}
			cols[i] = rec[body : body+size]
			body += size
		default:
			return errNotPlain
		}
	}
	return nil
}

// rows calls fn for each row of the table at root with a rowid above lo
// and at most hi, with cols filled with its columns in place (see
// recordColumns), valid during the call. It returns the rowid of the last
// row handed over (lo if none) with the error that stopped it. A fault
// reading the mapping (the file cut short under it, an I/O error) is
// errNotPlain, not the end of the process.
func (f *pageFile) rows(root uint32, lo, hi int64, cols [][]byte, fn func(rowid int64) error) (last int64, err error) {
	last = lo
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); !fault {
				panic(r)
			}
			err = fmt.Errorf("%w: a fault reading the mapped file", errNotPlain)
		}
	}()
	err = f.walk(root, lo, hi, 0, func(rowid int64, rec []byte) error {
		// Rowids rise through a sound b-tree: a damaged one that repeats a
		// page must not hand a row over twice.
		if rowid <= last {
			return errNotPlain
		}
		if err := recordColumns(rec, cols); err != nil {
			return err
		}
		if err := fn(rowid); err != nil {
			return err
		}
		last = rowid
		return nil
	})
	return last, err
}

// mappedTable maps the catalog's file and finds the root page of table,
// for a reader of an immutable catalog; errNotPlain otherwise. The caller
// holds conn for as long as it reads the mapping: its connection holds the
// read byte, so the file does not change under it.
func (c *Catalog) mappedTable(ctx context.Context, conn *sql.Conn, table string) (*pageFile, uint32, error) {
	if !c.immutable || c.lease == nil || c.lease.off {
		return nil, 0, errNotPlain
	}
	// With the root page, the schema cookie and the number of pages of the
	// file SQLite reads: the file mapped must be that one (not a file
	// renamed over it since).
	var root, cookie, pages int64
	err := conn.QueryRowContext(ctx, "SELECT rootpage, (SELECT schema_version FROM pragma_schema_version), (SELECT page_count FROM pragma_page_count) FROM sqlite_schema WHERE type = 'table' AND name = ?", table).Scan(&root, &cookie, &pages)
	if err != nil {
		return nil, 0, err
	}
	if root < 1 || root > 1<<32-1 {
		return nil, 0, errNotPlain
	}
	pf, err := mapCatalogPages(c.file)
	if err != nil {
		return nil, 0, errNotPlain
	}
	if uint32(cookie) != binary.BigEndian.Uint32(pf.data[40:]) || pages*int64(pf.pageSize) != int64(len(pf.data)) {
		pf.close()
		return nil, 0, errNotPlain
	}
	return pf, uint32(root), nil
}
