package pagefile

import (
	"encoding/binary"
	"os"
)

// OpenDamaged opens an SQLite file to read what it still can of it: a
// file cut short is opened too, its pages past the end read as lost.
// inFile and inHeader are how many whole pages the file holds and how many
// its header gives.
func OpenDamaged(path string) (f *File, inFile, inHeader uint32, err error) {
	osf, err := os.Open(path)
	if err != nil {
		return nil, 0, 0, err
	}
	f = &File{f: osf, owned: true}
	if err := f.readHeader(); err != nil && err != ErrChanged {
		osf.Close()
		return nil, 0, 0, err
	}
	info, err := osf.Stat()
	if err != nil {
		osf.Close()
		return nil, 0, 0, err
	}
	inHeader = f.pages
	inFile = uint32(min(int64(f.pages), info.Size()/int64(f.PageSize)))
	f.pages = inFile
	return f, inFile, inHeader, nil
}

// Walk calls fn for every row of the table b-tree at root that it can
// read, with the part of the row's payload that lies on its leaf page
// (the whole payload, unless it spills onto overflow pages). It returns
// how many pages of the tree it could not read: past the end of the file,
// or not b-tree pages (what lies under a lost interior page is not
// counted), and how many it read.
func (f *File) Walk(root uint32, fn func(rowid int64, local []byte)) (read, lost int) {
	buf := make([]byte, f.PageSize)
	var walk func(n uint32, depth int)
	walk = func(n uint32, depth int) {
		if depth > maxTreeDepth || f.readPages(buf, n, 1) != nil {
			lost++
			return
		}
		read++
		p := f.page(n, buf)
		h := p.header
		if h+12 > len(p.b) {
			lost++
			return
		}
		kind := p.b[h]
		cells := int(binary.BigEndian.Uint16(p.b[h+3:]))
		switch kind {
		case 0x0d: // a leaf
			ptrs := h + 8
			for i := 0; i < cells && ptrs+2*i+2 <= len(p.b); i++ {
				at := int(binary.BigEndian.Uint16(p.b[ptrs+2*i:]))
				if at >= len(p.b) {
					continue
				}
				size, k := varint(p.b[at:])
				rowid, r := varint(p.b[at+k:])
				if k == 0 || r == 0 {
					continue
				}
				start := at + k + r
				end := min(start+f.localSize(int(size)), len(p.b))
				if start < end {
					fn(int64(rowid), p.b[start:end])
				}
			}
		case 0x05: // an interior page: its children, read after its cells
			ptrs := h + 12
			var kids []uint32
			for i := 0; i < cells && ptrs+2*i+2 <= len(p.b); i++ {
				at := int(binary.BigEndian.Uint16(p.b[ptrs+2*i:]))
				if at+4 <= len(p.b) {
					kids = append(kids, binary.BigEndian.Uint32(p.b[at:]))
				}
			}
			kids = append(kids, binary.BigEndian.Uint32(p.b[h+8:]))
			for _, kid := range kids {
				walk(kid, depth+1)
			}
		default:
			lost++
		}
	}
	walk(root, 0)
	return read, lost
}

// localSize is how much of a table row's payload of size bytes lies on
// its leaf page (SQLite's file format, section 1.6).
func (f *File) localSize(size int) int {
	u := f.usable
	x := u - 35
	if size <= x {
		return size
	}
	m := (u-12)*32/255 - 23
	k := m + (size-m)%(u-4)
	if k <= x {
		return k
	}
	return m
}
