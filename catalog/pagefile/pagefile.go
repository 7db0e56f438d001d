// Package pagefile reads the table b-trees of an SQLite database file
// itself, as SQLite's file format lays them out
// (https://www.sqlite.org/fileformat2.html), with positioned reads into
// buffers of bounded size: no memory map, so a file cut short or replaced
// under a reader is an error, never a fault. A table written in key order
// lies mostly in consecutive pages, so runs of them are read with one
// system call each.
//
// Only what that format fixes is relied on. Anything else (a row that
// spills onto overflow pages, a page that is not a table page, a column of
// a type the caller does not expect) is ErrNotPlain: the caller reads that
// part through SQLite instead, which reads it or reports it damaged.
package pagefile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// ErrNotPlain is the reader stopping at something it does not read.
var ErrNotPlain = errors.New("not a plain table page")

// ErrChanged means the file changed while it was read: it is shorter than
// its pages, or its header is not the one read when it was opened.
var ErrChanged = errors.New("the file changed while it was read")

// File is an SQLite database file open for reading pages.
type File struct {
	f        *os.File
	owned    bool // Close closes f
	PageSize int
	usable   int    // PageSize less the bytes reserved at the end of each page
	pages    uint32 // in the file when it was opened
	header   [100]byte
}

// Open opens an SQLite file and reads its header. A file that is not one,
// or not one this package reads (text not UTF-8), is ErrNotPlain.
func Open(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	pf, err := Of(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	pf.owned = true
	return pf, nil
}

// Of reads the pages of a file its caller has open (and closes): the very
// file it opened, whatever has since been renamed over its name.
func Of(f *os.File) (*File, error) {
	pf := &File{f: f}
	if err := pf.readHeader(); err != nil {
		return nil, err
	}
	return pf, nil
}

// readHeader reads and checks the file's header.
func (f *File) readHeader() error {
	if _, err := f.f.ReadAt(f.header[:], 0); err != nil {
		return ErrNotPlain
	}
	h := f.header[:]
	if string(h[:16]) != "SQLite format 3\x00" {
		return ErrNotPlain
	}
	size := int(binary.BigEndian.Uint16(h[16:]))
	if size == 1 {
		size = 65536
	}
	// Text must be UTF-8 (encoding 1) for text columns to be read as bytes.
	if size < 512 || size&(size-1) != 0 || binary.BigEndian.Uint32(h[56:]) != 1 || size-int(h[20]) < 480 {
		return ErrNotPlain
	}
	f.PageSize, f.usable = size, size-int(h[20])
	// The page count in the header is valid when the version-valid-for
	// number matches the change counter (SQLite 3.7.0 and later).
	if binary.BigEndian.Uint32(h[92:]) != binary.BigEndian.Uint32(h[24:]) {
		return ErrNotPlain
	}
	f.pages = binary.BigEndian.Uint32(h[28:])
	info, err := f.f.Stat()
	if err != nil {
		return err
	}
	if info.Size() < int64(f.pages)*int64(size) {
		return ErrChanged
	}
	return nil
}

// Close closes the file, if Open opened it.
func (f *File) Close() error {
	if !f.owned {
		return nil
	}
	return f.f.Close()
}

// SchemaCookie is the header's schema cookie: SQLite's schema version.
func (f *File) SchemaCookie() uint32 { return binary.BigEndian.Uint32(f.header[40:]) }

// Pages is how many pages the file had when it was opened.
func (f *File) Pages() uint32 { return f.pages }

// Unchanged reports ErrChanged if the file is now shorter than it was or
// its header is not the one read at Open: another program truncated,
// replaced or wrote it.
func (f *File) Unchanged() error {
	var now [100]byte
	if _, err := f.f.ReadAt(now[:], 0); err != nil || now != f.header {
		return ErrChanged
	}
	info, err := f.f.Stat()
	if err != nil || info.Size() < int64(f.pages)*int64(f.PageSize) {
		return ErrChanged
	}
	return nil
}

// readPages reads count pages from page first (1-based) into buf. A read
// that ends early means the file was cut short under the reader.
func (f *File) readPages(buf []byte, first uint32, count int) error {
	if first == 0 || uint64(first)+uint64(count)-1 > uint64(f.pages) {
		return ErrNotPlain
	}
	n, err := pread(f.f, buf[:count*f.PageSize], (int64(first)-1)*int64(f.PageSize))
	if n < count*f.PageSize {
		if err == nil || errors.Is(err, io.EOF) {
			return ErrChanged
		}
		return fmt.Errorf("reading the catalog file: %w", err)
	}
	return nil
}

// Page is one b-tree page as read: its bytes (up to the reserved space)
// and where its b-tree header starts (page 1 begins with the file header).
type Page struct {
	b      []byte
	header int
}

// page wraps page number no whose bytes are b.
func (f *File) page(no uint32, b []byte) Page {
	p := Page{b: b[:f.usable]}
	if no == 1 {
		p.header = 100
	}
	return p
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

// Leaf is a leaf page of a table b-tree with the rowids it may hold: above
// Lo and at most Hi.
type Leaf struct {
	Page   uint32
	Lo, Hi int64
}

// Leaves appends to dst, in rowid order, the leaf pages of the table
// b-tree at root that may hold rowids above lo and at most hi. It reads
// the interior pages on the way, one at a time (a table of 4 KiB rows has
// about one interior page for every 400 leaves), and no leaf: every leaf
// of a b-tree lies at the same depth, found first down its left edge. (A
// damaged tree whose "leaf" is not one is found when the leaf is read.)
// With only (rowids in ascending order), it keeps the leaves that may hold
// one of them and walks no subtree that cannot: a scan that reads a few
// blocks of a large table lists those blocks' leaves, not every leaf.
func (f *File) Leaves(root uint32, lo, hi int64, only []int64, dst []Leaf) ([]Leaf, error) {
	buf := make([]byte, f.PageSize)
	height := 0
	for n := root; ; height++ {
		if height > maxTreeDepth {
			return nil, ErrNotPlain
		}
		if err := f.readPages(buf, n, 1); err != nil {
			return nil, err
		}
		p := f.page(n, buf)
		if p.header+12 > len(p.b) {
			return nil, ErrNotPlain
		}
		if p.b[p.header] == 0x0d {
			break
		}
		if p.b[p.header] != 0x05 {
			return nil, ErrNotPlain
		}
		n = binary.BigEndian.Uint32(p.b[p.header+8:]) // any child: the right-most
	}
	w := leafWalk{f: f, lo: lo, hi: hi, only: only, buf: buf, out: dst}
	err := w.leaves(root, math.MinInt64, math.MaxInt64, height, 0)
	return w.out, err
}

// leafWalk is one walk of Leaves: the range and rowids asked for, the
// page buffer it reads interior pages into, and the leaves found.
type leafWalk struct {
	f      *File
	lo, hi int64
	only   []int64 // the rowids asked for; nil: all
	buf    []byte
	out    []Leaf
}

// wanted reports whether the walk wants a subtree of rowids in (below,
// above]: whether it meets (lo, hi] and, with only, holds one of them.
// only[k] is the first rowid above what came before; next is the first
// above below.
func (w *leafWalk) wanted(below, above int64, k int) (ok bool, next int) {
	if w.only == nil {
		return above > w.lo && below < w.hi, k
	}
	for k < len(w.only) && w.only[k] <= below {
		k++
	}
	return above > w.lo && below < w.hi && k < len(w.only) && w.only[k] <= above, k
}

// leaves adds to w.out the wanted leaves under page n, height levels above
// them; the page holds rowids in (below, above], and only[from] is the
// first of only above below.
func (w *leafWalk) leaves(n uint32, below, above int64, height, from int) error {
	if height == 0 {
		w.out = append(w.out, Leaf{Page: n, Lo: below, Hi: above})
		return nil
	}
	f, buf := w.f, w.buf
	if err := f.readPages(buf, n, 1); err != nil {
		return err
	}
	p := f.page(n, buf)
	h := p.header
	if h+12 > len(p.b) || p.b[h] != 0x05 {
		return ErrNotPlain
	}
	// An interior page: child i holds the rowids up to key i, the
	// right-most child the rest. Its cells are read before any child
	// overwrites buf.
	cells := int(binary.BigEndian.Uint16(p.b[h+3:]))
	ptrs := h + 12
	if ptrs+2*cells > len(p.b) {
		return ErrNotPlain
	}
	type child struct {
		page   uint32
		lo, hi int64
		k      int
	}
	var kids []child
	prev := below
	for i := range cells {
		at := int(binary.BigEndian.Uint16(p.b[ptrs+2*i:]))
		if at+5 > len(p.b) {
			return ErrNotPlain
		}
		k, m := varint(p.b[at+4:])
		key := int64(k)
		if m == 0 || key < prev || key > above {
			return ErrNotPlain
		}
		ok, next := w.wanted(prev, key, from)
		if ok {
			kids = append(kids, child{binary.BigEndian.Uint32(p.b[at:]), prev, key, next})
		}
		from = next
		prev = key
	}
	if ok, next := w.wanted(prev, above, from); ok {
		kids = append(kids, child{binary.BigEndian.Uint32(p.b[h+8:]), prev, above, next})
	}
	for _, c := range kids {
		if err := w.leaves(c.page, c.lo, c.hi, height-1, c.k); err != nil {
			return err
		}
	}
	return nil
}

// Rows calls fn, in rowid order, for each row of a leaf page with a rowid
// above lo and at most hi, with the row's payload (its record) in place.
// A row whose payload does not lie whole on its page, or a page that is not
// a table leaf, is ErrNotPlain.
func (f *File) Rows(p Page, lo, hi int64, fn func(rowid int64, payload []byte) error) error {
	h := p.header
	if h+8 > len(p.b) || p.b[h] != 0x0d {
		return ErrNotPlain
	}
	cells := int(binary.BigEndian.Uint16(p.b[h+3:]))
	ptrs := h + 8
	if ptrs+2*cells > len(p.b) {
		return ErrNotPlain
	}
	// The most payload a leaf keeps on its page; beyond it, overflow pages.
	maxLocal := uint64(f.usable - 35)
	last := int64(math.MinInt64)
	for i := range cells {
		at := int(binary.BigEndian.Uint16(p.b[ptrs+2*i:]))
		if at >= len(p.b) {
			return ErrNotPlain
		}
		size, k := varint(p.b[at:])
		rowid, r := varint(p.b[at+k:])
		if k == 0 || r == 0 || size > maxLocal {
			return ErrNotPlain
		}
		start := at + k + r
		if start+int(size) > len(p.b) {
			return ErrNotPlain
		}
		id := int64(rowid)
		// Rowids rise through a sound page.
		if id <= last {
			return ErrNotPlain
		}
		last = id
		if id <= lo {
			continue
		}
		if id > hi {
			return nil
		}
		if err := fn(id, p.b[start:start+int(size)]); err != nil {
			return err
		}
	}
	return nil
}

// Value is one column of a record as found in place: a blob or text is its
// bytes (Bytes), an integer its value (Int, with IsInt set), NULL neither.
type Value struct {
	Bytes []byte
	Int   int64
	IsInt bool
	Null  bool
}

// Record finds the first len(cols) columns of a record (a row's payload)
// in place. A float, or a record with fewer columns, is ErrNotPlain.
func Record(rec []byte, cols []Value) error {
	hsize, n := varint(rec)
	if n == 0 || hsize > uint64(len(rec)) {
		return ErrNotPlain
	}
	at, body := n, int(hsize)
	for i := range cols {
		if at >= int(hsize) {
			return ErrNotPlain
		}
		t, k := varint(rec[at:int(hsize)])
		if k == 0 {
			return ErrNotPlain
		}
		at += k
		c := &cols[i]
		*c = Value{}
		switch {
		case t == 0:
			c.Null = true
		case t == 8 || t == 9:
			c.Int, c.IsInt = int64(t-8), true
		case t >= 1 && t <= 6:
			size := [7]int{0, 1, 2, 3, 4, 6, 8}[t]
			if body+size > len(rec) {
				return ErrNotPlain
			}
			var v int64
			for _, b := range rec[body : body+size] {
				v = v<<8 | int64(b)
			}
			// Sign-extend from the integer's width.
			shift := 64 - 8*size
			c.Int, c.IsInt = v<<shift>>shift, true
			body += size
		case t >= 12:
			if t > uint64(2*len(rec)+13) {
				return ErrNotPlain // longer than the record: damaged
			}
			size := int((t - 12) / 2)
			if body+size > len(rec) {
				return ErrNotPlain
			}
			c.Bytes = rec[body : body+size]
			body += size
		default:
			return ErrNotPlain
		}
	}
	return nil
}

// Reader reads pages in runs into a buffer of its own, so that a scan's
// memory stays bounded whatever the size of the file.
type Reader struct {
	f   *File
	per int    // the most pages one read takes
	buf []byte // as long as the longest run read yet, up to per pages
}

// NewReader returns a reader whose buffer holds about bytes (at least one
// page). The buffer grows to that as the runs read need it: a scan of a
// small table reads a few pages, and takes no more.
func (f *File) NewReader(bytes int) *Reader {
	return &Reader{f: f, per: max(bytes/f.PageSize, 1)}
}

// maxGap is how many unwanted pages a run reads through rather than end:
// copying a few pages costs less than another system call.
const maxGap = 3

// Each calls fn for each of pages (in ascending order), reading runs of
// nearby pages with one positioned read each; a page is valid only during
// its call.
func (r *Reader) Each(pages []uint32, fn func(no uint32, p Page) error) error {
	per := r.per
	for i := 0; i < len(pages); {
		first := pages[i]
		j := i + 1
		for j < len(pages) && pages[j] > pages[j-1] && pages[j]-pages[j-1] <= maxGap+1 && int(pages[j]-first) < per {
			j++
		}
		count := int(pages[j-1]-first) + 1
		if need := count * r.f.PageSize; len(r.buf) < need {
			r.buf = make([]byte, min(max(need, 2*len(r.buf)), per*r.f.PageSize))
		}
		if err := r.f.readPages(r.buf, first, count); err != nil {
			return err
		}
		for _, no := range pages[i:j] {
			off := int(no-first) * r.f.PageSize
			if err := fn(no, r.f.page(no, r.buf[off:off+r.f.PageSize])); err != nil {
				return err
			}
		}
		i = j
	}
	return nil
}
