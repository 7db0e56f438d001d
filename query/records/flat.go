package records

// Flat Parquet: the export's default layout, one column per cell.
//
// A filter on a few cells is answered by a reader like DuckDB from those
// columns alone, where the list column of the other layout makes it read
// every cell of every row. The file is written here, page by page, rather
// than through a general Parquet library, because every column is a small
// integer or a string from a short list, and writing them as such is what
// keeps an export at the listing's own speed:
//
//   - cells, orbits, symmetries, properties and matching counts are
//     dictionary-encoded: the dictionary holds every value the column can
//     take (1..N for a queens row, 1..N² for a magic cell), so each value
//     is its index, bit-packed at the fewest bits the dictionary needs;
//   - solution and class IDs are DELTA_BINARY_PACKED: a full export's IDs
//     cost no bits at all, a filtered one's only the bits of the gaps;
//   - nothing is compressed: bit-packed indices are already as small as
//     the values' range, and readers skip the decompression.
//
// Rows are gathered in row groups of flatGroupRows, a size DuckDB reads
// well (one task per row group per thread); each group is encoded on a
// worker of its own and written in order, so the bytes depend only on the
// rows and the dataset, never on how many workers encoded them. Each
// column chunk carries its min and max, so a reader skips row groups a
// filter cannot match.

import (
	"bytes"
	"encoding/binary"
	"io"
	"math/bits"
	"runtime"
	"slices"

	"github.com/parquet-go/parquet-go/deprecated"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"

	"solcat/canon"
	"solcat/query"
)

// flatGroupRows is the rows of a row group (the last may have fewer), and
// flatWorkers how many row groups are encoded at once: variables so the
// tests can show that the bytes depend on the rows alone.
var (
	flatGroupRows = 1 << 20
	flatWorkers   = runtime.GOMAXPROCS(0)
)

// A flatColumn is one column of a flat file.
type flatColumn struct {
	name     string
	ints     bool     // delta-encoded integers (else dictionary indices)
	wide     bool     // ints: INT64 (else INT32)
	unsigned int8     // the bit width of an unsigned logical type (8, 16, 32), 0 for none
	strs     []string // the dictionary of a string column
	nums     []int32  // the dictionary of an integer column
	list     bool     // a list of strings (props): any number of values a row
	optional bool     // may be null (a cell the smaller puzzles of a range lack)
}

func (c *flatColumn) dictSize() int { return max(len(c.strs), len(c.nums)) }

// uintColumn is a dictionary-encoded column of the integers lo..hi.
func uintColumn(name string, lo, hi int32) flatColumn {
	c := flatColumn{name: name, unsigned: 8}
	if hi > 255 {
		c.unsigned = 16
	}
	for v := lo; v <= hi; v++ {
		c.nums = append(c.nums, v)
	}
	return c
}

// flatBuf holds one column's values of a row group.
type flatBuf struct {
	ints []int64  // ints columns
	idx  []uint16 // dictionary columns: an index per value
	lens []uint8  // list columns: the values of each row
	defs []uint16 // optional columns: 1 for a value, 0 for null
}

// flatGroup is a row group being filled or encoded.
type flatGroup struct {
	rows int
	cols []flatBuf
}

// flatFile writes a flat Parquet file: add rows with group.cols and done,
// then close.
type flatFile struct {
	out     io.Writer
	cols    []flatColumn
	meta    []format.KeyValue
	schema  string
	created string

	cur     *flatGroup
	free    chan *flatGroup
	pending []chan encodedGroup // in the order of the rows

	offset int64
	groups []format.RowGroup
	rows   int64
	err    error
}

// encodedGroup is a row group's bytes, with its chunks' metadata at
// offsets from the group's start.
type encodedGroup struct {
	data   []byte
	chunks []format.ColumnChunk
	rows   int
}

func newFlatFile(out io.Writer, schema, createdBy string, meta []format.KeyValue, cols []flatColumn) *flatFile {
	f := &flatFile{out: out, cols: cols, meta: meta, schema: schema, created: createdBy, free: make(chan *flatGroup, flatWorkers+1)}
	if _, err := out.Write([]byte("PAR1")); err != nil {
		f.err = err
	}
	f.offset = 4
	return f
}

// row returns the group the next row goes into.
func (f *flatFile) row() *flatGroup {
	if f.cur == nil {
		select {
		case f.cur = <-f.free:
			f.cur.rows = 0
			for i := range f.cur.cols {
				c := &f.cur.cols[i]
				c.ints, c.idx, c.lens, c.defs = c.ints[:0], c.idx[:0], c.lens[:0], c.defs[:0]
			}
		default:
			f.cur = &flatGroup{cols: make([]flatBuf, len(f.cols))}
		}
	}
	return f.cur
}

// added ends a row: a full group goes to the encoders.
func (f *flatFile) added() error {
	f.cur.rows++
	if f.cur.rows < flatGroupRows {
		return f.err
	}
	f.submit()
	return f.err
}

func (f *flatFile) submit() {
	// Encode at most flatWorkers groups ahead of the file, so memory stays
	// bounded whatever the export's length.
	for len(f.pending) >= flatWorkers {
		f.drain()
	}
	done := make(chan encodedGroup, 1)
	f.pending = append(f.pending, done)
	g := f.cur
	f.cur = nil
	go func() {
		done <- f.encode(g)
		select {
		case f.free <- g:
		default:
		}
	}()
}

// drain writes the oldest encoded group to the file; its chunks' offsets
// become the file's.
func (f *flatFile) drain() {
	e := <-f.pending[0]
	f.pending = f.pending[1:]
	if f.err != nil {
		return
	}
	var total int64
	for i := range e.chunks {
		c := &e.chunks[i]
		c.FileOffset += f.offset
		c.MetaData.DataPageOffset += f.offset
		if c.MetaData.Encoding[0] != format.DeltaBinaryPacked {
			c.MetaData.DictionaryPageOffset = c.FileOffset
		}
		total += c.MetaData.TotalCompressedSize
	}
	f.groups = append(f.groups, format.RowGroup{Columns: e.chunks, TotalByteSize: total, NumRows: int64(e.rows),
		FileOffset: f.offset, TotalCompressedSize: total, Ordinal: int16(len(f.groups))})
	f.rows += int64(e.rows)
	if _, err := f.out.Write(e.data); err != nil {
		f.err = err
	}
	f.offset += int64(len(e.data))
}

// close writes the last rows and the footer.
func (f *flatFile) close() error {
	if f.cur != nil && f.cur.rows > 0 {
		f.submit()
	}
	for len(f.pending) > 0 {
		f.drain()
	}
	if f.err != nil {
		return f.err
	}
	md := format.FileMetaData{Version: 1, Schema: f.schemaElements(), NumRows: f.rows, RowGroups: f.groups,
		KeyValueMetadata: f.meta, CreatedBy: f.created}
	if f.groups == nil {
		md.RowGroups = []format.RowGroup{}
	}
	for range f.leaves() {
		md.ColumnOrders = append(md.ColumnOrders, format.ColumnOrder{Value: &format.TypeDefinedOrder{}})
	}
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), &md)
	if err != nil {
		return err
	}
	footer = binary.LittleEndian.AppendUint32(footer, uint32(len(footer)))
	footer = append(footer, "PAR1"...)
	_, err = f.out.Write(footer)
	return err
}

// leaves are the leaf columns, as Parquet counts them: one per column.
func (f *flatFile) leaves() []flatColumn { return f.cols }

func (c *flatColumn) physical() format.Type {
	switch {
	case c.strs != nil:
		return format.ByteArray
	case c.ints && c.wide:
		return format.Int64
	}
	return format.Int32
}

// leafElement is the schema element of c's values.
func (c *flatColumn) leafElement(name string) format.SchemaElement {
	e := format.SchemaElement{Type: thrift.New(c.physical()), RepetitionType: thrift.New(format.Required), Name: name}
	if c.optional {
		e.RepetitionType = thrift.New(format.Optional)
	}
	switch {
	case c.strs != nil:
		e.ConvertedType = thrift.New(deprecated.UTF8)
		e.LogicalType = format.LogicalType{Value: &format.StringType{}}
	case c.unsigned != 0:
		e.ConvertedType = thrift.New(map[int8]deprecated.ConvertedType{8: deprecated.Uint8, 16: deprecated.Uint16, 32: deprecated.Uint32}[c.unsigned])
		e.LogicalType = format.LogicalType{Value: &format.IntType{BitWidth: c.unsigned, IsSigned: false}}
	}
	return e
}

func (f *flatFile) schemaElements() []format.SchemaElement {
	out := []format.SchemaElement{{Name: f.schema, NumChildren: thrift.New(int32(len(f.cols)))}}
	for i := range f.cols {
		c := &f.cols[i]
		if !c.list {
			out = append(out, c.leafElement(c.name))
			continue
		}
		// The three levels of a LIST, as the format's LogicalTypes has them.
		out = append(out,
			format.SchemaElement{RepetitionType: thrift.New(format.Required), Name: c.name, NumChildren: thrift.New(int32(1)),
				ConvertedType: thrift.New(deprecated.List), LogicalType: format.LogicalType{Value: &format.ListType{}}},
			format.SchemaElement{RepetitionType: thrift.New(format.Repeated), Name: "list", NumChildren: thrift.New(int32(1))},
			c.leafElement("element"))
	}
	return out
}

func (c *flatColumn) path() []string {
	if c.list {
		return []string{c.name, "list", "element"}
	}
	return []string{c.name}
}

// encode writes a row group's column chunks, each a dictionary page (for
// dictionary columns) and one data page.
func (f *flatFile) encode(g *flatGroup) encodedGroup {
	var data bytes.Buffer
	e := encodedGroup{rows: g.rows}
	var page []byte
	for i := range f.cols {
		c, b := &f.cols[i], &g.cols[i]
		start := int64(data.Len())
		md := format.ColumnMetaData{Type: c.physical(), PathInSchema: c.path(), Codec: format.Uncompressed}
		var stats format.Statistics
		values := int64(g.rows)
		if c.ints {
			md.Encoding = []format.Encoding{format.DeltaBinaryPacked}
			page = deltaPack(page[:0], b.ints)
			stats = intStats(c, b.ints)
		} else {
			md.Encoding = []format.Encoding{format.Plain, format.RLE, format.RLEDictionary}
			dict := c.dictPage()
			writePage(&data, format.PageHeader{Type: format.DictionaryPage, DictionaryPageHeader: thrift.New(format.DictionaryPageHeader{
				NumValues: int32(c.dictSize()), Encoding: format.Plain, IsSorted: true})}, dict)
			page = page[:0]
			if c.list {
				page, values = listLevels(page, b.lens)
			}
			if c.optional {
				page = lengthPrefixed(page, b.defs)
			}
			width := max(bits.Len(uint(c.dictSize()-1)), 1)
			page = append(page, byte(width))
			page = hybridPack(page, b.idx, width)
			stats = dictStats(c, b.idx)
			if c.optional {
				stats.NullCount = int64(g.rows - len(b.idx))
			}
		}
		md.DataPageOffset = int64(data.Len())
		writePage(&data, format.PageHeader{Type: format.DataPage, DataPageHeader: thrift.New(format.DataPageHeader{
			NumValues: int32(values), Encoding: md.Encoding[len(md.Encoding)-1], DefinitionLevelEncoding: format.RLE, RepetitionLevelEncoding: format.RLE})}, page)
		md.NumValues = values
		md.TotalCompressedSize = int64(data.Len()) - start
		md.TotalUncompressedSize = md.TotalCompressedSize
		md.Statistics = stats
		e.chunks = append(e.chunks, format.ColumnChunk{FileOffset: start, MetaData: md})
	}
	e.data = data.Bytes()
	return e
}

func writePage(out *bytes.Buffer, h format.PageHeader, body []byte) {
	h.UncompressedPageSize = int32(len(body))
	h.CompressedPageSize = int32(len(body))
	head, err := thrift.Marshal(new(thrift.CompactProtocol), &h)
	if err != nil {
		panic(err) // a page header always encodes
	}
	out.Write(head)
	out.Write(body)
}

// dictPage is c's dictionary, PLAIN-encoded.
func (c *flatColumn) dictPage() []byte {
	var out []byte
	for _, s := range c.strs {
		out = binary.LittleEndian.AppendUint32(out, uint32(len(s)))
		out = append(out, s...)
	}
	for _, v := range c.nums {
		out = binary.LittleEndian.AppendUint32(out, uint32(v))
	}
	return out
}

// listLevels writes the repetition and definition levels of a list column
// (each length-prefixed, as data pages of version 1 have them): an empty
// list is one entry at definition level 0, each value one at level 1, all
// but a list's first at repetition level 1. It returns how many entries
// there are.
func listLevels(out []byte, lens []uint8) ([]byte, int64) {
	var rep, def []uint16
	for _, n := range lens {
		if n == 0 {
			rep, def = append(rep, 0), append(def, 0)
			continue
		}
		for k := range n {
			rep, def = append(rep, min(uint16(k), 1)), append(def, 1)
		}
	}
	out = lengthPrefixed(out, rep)
	out = lengthPrefixed(out, def)
	return out, int64(len(rep))
}

// lengthPrefixed writes levels of 0 and 1 as a data page of version 1
// has them: their length in bytes, then the hybrid encoding.
func lengthPrefixed(out []byte, levels []uint16) []byte {
	at := len(out)
	out = append(out, 0, 0, 0, 0)
	out = hybridPack(out, levels, 1)
	binary.LittleEndian.PutUint32(out[at:], uint32(len(out)-at-4))
	return out
}

// hybridPack writes values (each below 1<<width) as one bit-packed run of
// the RLE/bit-packing hybrid, padded to a multiple of 8 values.
func hybridPack(out []byte, values []uint16, width int) []byte {
	groups := (len(values) + 7) / 8
	out = binary.AppendUvarint(out, uint64(groups)<<1|1)
	out = packBits(out, values, width)
	// The run's last group, padded with zeros.
	return append(out, make([]byte, groups*width-(len(values)*width+7)/8)...)
}

// packBits appends values, width bits each, least significant bit first.
func packBits[T uint16 | uint64](out []byte, values []T, width int) []byte {
	var acc uint64
	n, w := uint(0), uint(width) // n: the bits in acc
	for _, v := range values {
		x := uint64(v)
		acc |= x << n
		if n += w; n >= 64 {
			out = binary.LittleEndian.AppendUint64(out, acc)
			n -= 64
			acc = x >> (w - n) // the bits of x that did not fit (none if n is 0: x < 1<<w)
		}
	}
	for k := int(n); k > 0; k -= 8 {
		out = append(out, byte(acc))
		acc >>= 8
	}
	return out
}

// deltaPack writes values in DELTA_BINARY_PACKED: blocks of 128 deltas in
// 4 miniblocks of 32, each at the bits its largest delta above the
// block's least needs.
func deltaPack(out []byte, values []int64) []byte {
	const block, minis, mini = 128, 4, 32
	out = binary.AppendUvarint(out, block)
	out = binary.AppendUvarint(out, minis)
	out = binary.AppendUvarint(out, uint64(len(values)))
	first := int64(0)
	if len(values) > 0 {
		first = values[0]
	}
	out = binary.AppendVarint(out, first)
	var deltas [block]uint64
	for at := 1; at < len(values); at += block {
		n := min(block, len(values)-at)
		least := values[at] - values[at-1]
		for k := range n {
			least = min(least, values[at+k]-values[at+k-1])
		}
		for k := range n {
			deltas[k] = uint64(values[at+k] - values[at+k-1] - least)
		}
		clear(deltas[n:])
		out = binary.AppendVarint(out, least)
		widths := len(out)
		out = append(out, 0, 0, 0, 0)
		for m := 0; m*mini < n; m++ {
			var top uint64
			for _, d := range deltas[m*mini : (m+1)*mini] {
				top |= d
			}
			width := bits.Len64(top)
			out[widths+m] = byte(width)
			out = packBits(out, deltas[m*mini:(m+1)*mini], width)
		}
	}
	return out
}

func intStats(c *flatColumn, values []int64) format.Statistics {
	if len(values) == 0 {
		return format.Statistics{}
	}
	lo, hi := values[0], values[0]
	for _, v := range values {
		lo, hi = min(lo, v), max(hi, v)
	}
	enc := func(v int64) []byte {
		if c.wide {
			return binary.LittleEndian.AppendUint64(nil, uint64(v))
		}
		return binary.LittleEndian.AppendUint32(nil, uint32(v))
	}
	return format.Statistics{MinValue: enc(lo), MaxValue: enc(hi), Min: enc(lo), Max: enc(hi)}
}

// dictStats are the min and max of a dictionary column's values; the
// dictionaries are sorted, so they are those of the indices.
func dictStats(c *flatColumn, idx []uint16) format.Statistics {
	if len(idx) == 0 {
		return format.Statistics{}
	}
	var seen [1 << 16]bool
	for _, i := range idx {
		seen[i] = true
	}
	lo, hi := -1, 0
	for i := range c.dictSize() {
		if seen[i] {
			if lo < 0 {
				lo = i
			}
			hi = i
		}
	}
	if c.strs != nil {
		// Strings sort by their bytes, not by their place in the dictionary.
		var min, max string
		for i := range c.strs {
			if seen[i] && (min == "" || c.strs[i] < min) {
				min = c.strs[i]
			}
			if seen[i] && c.strs[i] > max {
				max = c.strs[i]
			}
		}
		return format.Statistics{MinValue: []byte(min), MaxValue: []byte(max)}
	}
	enc := func(v int32) []byte { return binary.LittleEndian.AppendUint32(nil, uint32(v)) }
	return format.Statistics{MinValue: enc(c.nums[lo]), MaxValue: enc(c.nums[hi]), Min: enc(c.nums[lo]), Max: enc(c.nums[hi])}
}

// flatRows maps solutions and classes to the columns of a flat file.
type flatRows struct {
	f        *flatFile
	queens   bool
	symmetry [8]uint16 // a symmetry's index in its column's dictionary
	props    []propIndex
}

// propIndex is a property's index in the props dictionary, in the order
// canon.Property.Names lists them.
type propIndex struct {
	p   canon.Property
	idx uint16
}

// sortedDict is names sorted, as a dictionary, with where each name went.
func sortedDict(names []string) ([]string, map[string]uint16) {
	sorted := slices.Sorted(slices.Values(names))
	at := map[string]uint16{}
	for i, n := range sorted {
		at[n] = uint16(i)
	}
	return sorted, at
}

// newFlatRows lays out the columns: first lead (the columns before props),
// then props, then one per cell.
func newFlatRows(out io.Writer, d Dataset, rows string, lead []flatColumn) *flatRows {
	p := d.Puzzle
	r := &flatRows{queens: p.Kind == canon.Queens}
	cols := lead
	if i := slices.IndexFunc(cols, func(c flatColumn) bool { return c.name == "symmetry" }); i >= 0 {
		names := make([]string, len(canon.All))
		for k, sym := range canon.All {
			names[k] = sym.String()
		}
		sorted, at := sortedDict(names)
		for _, sym := range canon.All {
			r.symmetry[sym] = at[sym.String()]
		}
		cols[i].strs = sorted
	}
	names := canon.PropertyNames(p.Kind)
	sorted, at := sortedDict(names)
	for _, n := range names {
		pr, _ := canon.ParseProperty(p.Kind, n)
		r.props = append(r.props, propIndex{pr, at[n]})
	}
	cols = append(cols, flatColumn{name: "props", strs: sorted, list: true})
	hi := int32(p.N)
	if !r.queens {
		hi = int32(p.N * p.N)
	}
	for _, name := range CellColumnNames(p) {
		cols = append(cols, uintColumn(name, 1, hi))
	}
	var colNames []string
	for _, c := range cols {
		colNames = append(colNames, c.name)
	}
	r.f = newFlatFile(out, d.schemaName(rows), d.createdBy(), d.metadata(rows, colNames), cols)
	return r
}

// addProps and addCells fill the columns from props on: cols[0] is props.
func (r *flatRows) addProps(col *flatBuf, ps canon.Property) {
	n := 0
	for _, pi := range r.props {
		if ps&pi.p != 0 {
			col.idx = append(col.idx, pi.idx)
			n++
		}
	}
	col.lens = append(col.lens, uint8(n))
}

func (r *flatRows) addCells(cols []flatBuf, cells []byte) {
	// The dictionary is 1..N (queens) or 1..N² (magic): a queens cell, a
	// 0-based column, is its own index; a magic value is one above it.
	shift := uint16(1)
	if r.queens {
		shift = 0
	}
	for i, v := range cells {
		cols[i].idx = append(cols[i].idx, uint16(v)-shift)
	}
}

func orbitIndex(orbit int) uint16 { return uint16(bits.TrailingZeros(uint(orbit))) }

type flatSolutionWriter struct{ *flatRows }

// flatSolutionLead are a solution's columns before props.
func flatSolutionLead() []flatColumn {
	return []flatColumn{
		{name: "id", ints: true, wide: true},
		{name: "class", ints: true, unsigned: 32},
		{name: "orbit", unsigned: 8, nums: []int32{1, 2, 4, 8}},
		{name: "symmetry"},
	}
}

func newFlatSolutionWriter(out io.Writer, d Dataset) RowWriter[query.Solution] {
	return flatSolutionWriter{newFlatRows(out, d, "solutions", flatSolutionLead())}
}

func (r *flatRows) solutionLead(c []flatBuf, s query.Solution) {
	c[0].ints = append(c[0].ints, s.ID)
	c[1].ints = append(c[1].ints, s.ClassID)
	c[2].idx = append(c[2].idx, orbitIndex(s.Orbit))
	c[3].idx = append(c[3].idx, r.symmetry[s.Symmetry&7])
}

func (w flatSolutionWriter) Write(s query.Solution) error {
	c := w.f.row().cols
	w.solutionLead(c, s)
	w.addProps(&c[4], s.Props)
	w.addCells(c[5:], s.Cells)
	return w.f.added()
}

func (w flatSolutionWriter) Close() error { return w.f.close() }

type flatClassWriter struct{ *flatRows }

// flatClassLead are a class's columns before props.
func flatClassLead() []flatColumn {
	return []flatColumn{
		{name: "class", ints: true, unsigned: 32},
		{name: "orbit", unsigned: 8, nums: []int32{1, 2, 4, 8}},
		uintColumn("matching", 0, 8),
	}
}

func newFlatClassWriter(out io.Writer, d Dataset) RowWriter[query.Class] {
	return flatClassWriter{newFlatRows(out, d, "classes", flatClassLead())}
}

func (r *flatRows) classLead(cols []flatBuf, c query.Class) {
	cols[0].ints = append(cols[0].ints, c.ID)
	cols[1].idx = append(cols[1].idx, orbitIndex(c.Orbit))
	cols[2].idx = append(cols[2].idx, uint16(c.Matching))
}

func (w flatClassWriter) Write(c query.Class) error {
	cols := w.f.row().cols
	w.classLead(cols, c)
	w.addProps(&cols[3], c.Props)
	w.addCells(cols[4:], c.Canonical)
	return w.f.added()
}

func (w flatClassWriter) Close() error { return w.f.close() }
