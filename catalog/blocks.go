package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/jmoiron/sqlx"

	"solcat/canon"
)

// maxBlockSolutions is the most solutions a block row holds: the number of
// rows in the block_slots table, which the solutions views join with.
const maxBlockSolutions = 1024

// MaxBlockSolutions is the most solutions a block holds.
const MaxBlockSolutions = maxBlockSolutions

// columnBlockBytes is how many bytes of cells and class entries a block
// row of layout 2 or 3 carries: SQLite keeps a row of up to 4,061 bytes on
// a 4 KiB page, and the row's header and number take under 21 of them.
// (Layout 2 kept its synopsis in the row too, within the same bytes.)
const columnBlockBytes = 4040

// synopsisBits is how many values a cell of p can hold, as bits of a
// block synopsis per cell: queens 0 to N-1, magic squares 1 to N² (bit 0
// unused, so that a value is its own bit).
func synopsisBits(p canon.Puzzle) int {
	if p.Kind == canon.Queens {
		return p.N
	}
	return p.N*p.N + 1
}

// classSymDigits is the width of the class_syms entries of a puzzle with
// this many classes: enough for the largest class_id * 8 + symmetry.
func classSymDigits(classes int64) int {
	return len(strconv.FormatInt(max(classes, 1)*8+7, 10))
}

// blocksTable names the table that holds a puzzle's solutions in blocks:
// "queens:8" has solution_blocks_queens_8 (the view solutions_queens_8
// shows them one row each).
func blocksTable(puzzle string) string { return "solution_blocks_" + tableSuffix(puzzle) }

// twoDigits holds "00" to "99": appendDigits writes two digits a step.
var twoDigits = func() (t [200]byte) {
	for i := range 100 {
		t[2*i], t[2*i+1] = byte('0'+i/10), byte('0'+i%10)
	}
	return t
}()

// appendDigits appends v (>= 0) in decimal, zero-padded to width digits.
func appendDigits(dst []byte, v int64, width int) []byte {
	start := len(dst)
	for range width {
		dst = append(dst, '0')
	}
	i := len(dst)
	for v >= 10 && i-2 >= start {
		d := v % 100 * 2
		dst[i-2], dst[i-1] = twoDigits[d], twoDigits[d+1]
		v /= 100
		i -= 2
	}
	if v > 0 && i > start {
		dst[i-1] = byte('0' + v%10)
	}
	return dst
}

// parseDigits reads a zero-padded decimal.
func parseDigits(b []byte) (int64, bool) {
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, len(b) > 0
}

// blockTable reads the solution blocks of one puzzle. A column block
// holds its solutions' cells column by column: first every solution's
// cell 0, then every solution's cell 1, and so on, so that a scan testing
// k cells reads k runs of bytes. Its synopsis has a bit per cell and value
// that is set when some solution of the block holds the value there, so
// that a scan skips a block that cannot match. Three layouts are read:
//
//  1. row-major blocks (each solution's cells in turn), no synopsis, class
//     entries in decimal: catalogs of schema version 11 and below;
//  2. column blocks with the synopsis in the block row, class entries in
//     decimal: schema versions 12 to 17;
//  3. column blocks with class entries in base 64, and a block index
//     apart (blockindex.go) with each block's synopsis and checksums.
type blockTable struct {
	Table     string // the blocks table
	Index     string // layout 3: the block index
	CellBytes int    // the length of one solution's cells
	Digits    int    // the width of one class entry
	Layout    int    // 1, 2 or 3, as above
	Bits      int    // the synopsis bits of one cell
}

// puzzleBlocks describes the blocks of layout 3 of p with this many
// classes.
func puzzleBlocks(p canon.Puzzle, classes int64) blockTable {
	name := p.String()
	return blockTable{Table: blocksTable(name), Index: blockIndexTable(name), CellBytes: p.Len(), Digits: classSymDigits64(classes), Layout: 3, Bits: synopsisBits(p)}
}

// olderBlocks describes the blocks of layout 1 or 2 of p.
func olderBlocks(p canon.Puzzle, classes int64, layout int) blockTable {
	return blockTable{Table: blocksTable(p.String()), CellBytes: p.Len(), Digits: classSymDigits(classes), Layout: layout, Bits: synopsisBits(p)}
}

// columnar reports whether the blocks hold their cells column by column.
func (b blockTable) columnar() bool { return b.Layout >= 2 }

// perBlock is how many solutions fill a block of layout 3.
func (b blockTable) perBlock() int {
	return min(maxBlockSolutions, max(1, columnBlockBytes/(b.CellBytes+b.Digits)))
}

// classEntry reads one class entry: class_id * 8 + symmetry.
func (b blockTable) classEntry(e []byte) (int64, bool) {
	if b.Layout == 3 {
		return parseDigits64(e)
	}
	return parseDigits(e)
}

// synopsisBytes is the length of a column block's synopsis.
func (b blockTable) synopsisBytes() int { return (b.CellBytes*b.Bits + 7) / 8 }

// appendSynopsis appends the synopsis of a block whose cells are cols,
// column-major, n solutions.
func (b blockTable) appendSynopsis(dst, cols []byte, n int) []byte {
	start := len(dst)
	dst = append(dst, make([]byte, b.synopsisBytes())...)
	syn := dst[start:]
	for c := range b.CellBytes {
		for _, v := range cols[c*n : (c+1)*n] {
			if int(v) < b.Bits {
				bit := c*b.Bits + int(v)
				syn[bit>>3] |= 1 << (bit & 7)
			}
		}
	}
	return dst
}

// transpose writes the n solutions of src, c cells each, into dst with
// rows and columns swapped: row-major to column-major, or (with c and n
// swapped) back.
func transpose(dst, src []byte, n, c int) {
	for k := range n {
		row := src[k*c : (k+1)*c]
		for i, v := range row {
			dst[i*n+k] = v
		}
	}
}

// rowQueryer is a database, connection or transaction.
type rowQueryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// StoredSolution is one solution as read from its block. Cells points into
// the block and is valid only during the callback.
type StoredSolution struct {
	ID    int64
	Cells []byte
	entry []byte // class_id * 8 + symmetry, read by Class
	t     *blockTable
}

// Class returns the solution's class ID and the symmetry that carries the
// class's canonical form onto it. Scans that need neither skip the parsing.
func (s StoredSolution) Class() (classID int64, symmetry int, err error) {
	classSym, ok := s.t.classEntry(s.entry)
	if !ok {
		return 0, 0, fmt.Errorf("solution %d is damaged: its class entry %q is not a number", s.ID, s.entry)
	}
	return classSym >> 3, int(classSym & 7), nil
}

// ScanReporting calls fn for the solutions with IDs from..to (inclusive),
// in ID order, reading whole blocks through SQLite, and hands a damaged
// block (one whose bytes are not whole solutions, or whose synopsis does
// not match its cells) to damaged and goes on with the next: verify's
// reading, which finds every damaged block rather than stop at the first.
func (b blockTable) ScanReporting(ctx context.Context, db rowQueryer, from, to int64, fn func(StoredSolution) error, damaged func(error)) error {
	rows, err := db.QueryContext(ctx, "SELECT first_id, cells, class_syms, "+b.synopsisColumn()+" FROM "+b.Table+" WHERE first_id > ? AND first_id <= ? ORDER BY first_id",
		from-maxBlockSolutions, to)
	if err != nil {
		return err
	}
	defer rows.Close()
	var rowMajor, check []byte
	for rows.Next() {
		var first int64
		var cells, syms, syn sql.RawBytes // valid until the next row, as Cells promises
		if err := rows.Scan(&first, &cells, &syms, &syn); err != nil {
			return err
		}
		if b.Layout == 2 && len(cells)%b.CellBytes == 0 {
			n := len(cells) / b.CellBytes
			// A check: a synopsis that says less than its block would hide
			// solutions from scans. The solutions are still read: a check
			// names what is wrong with them too.
			if damaged != nil {
				if check = b.appendSynopsis(check[:0], cells, n); string(check) != string(syn) {
					damaged(damagedBlock{fmt.Errorf("solution block %d is damaged: its synopsis does not match its cells", first)})
				}
			}
		}
		if b.columnar() && len(cells)%b.CellBytes == 0 {
			n := len(cells) / b.CellBytes
			rowMajor = slices.Grow(rowMajor[:0], len(cells))[:len(cells)]
			transpose(rowMajor, cells, b.CellBytes, n)
			cells = rowMajor
		}
		err := b.decode(first, cells, syms, func(s StoredSolution) error {
			if s.ID < from || s.ID > to {
				return nil
			}
			return fn(s)
		})
		var bad damagedBlock
		if errors.As(err, &bad) && damaged != nil {
			damaged(err)
			continue
		}
		if err != nil {
			return err
		}
	}
	return rows.Err()
}

// synopsisColumn is the SQL of the synopsis column, NULL in row-major
// blocks.
func (b blockTable) synopsisColumn() string {
	if b.Layout == 2 {
		return "synopsis"
	}
	return "NULL"
}

// Block is one block of stored solutions as a scan reads it: each cell's
// values for all of the block's solutions together, whatever the layout
// it is stored in. It is valid only during the callback that hands it
// over.
type Block struct {
	First    int64 // the ID of its first solution
	N        int   // its solutions
	part     [][]byte
	syms     []byte
	syn      []byte // nil for a row-major block: no synopsis
	t        *blockTable
	rowMajor []byte // a row-major block's cells turned into columns
}

// Column returns cell i of each of the block's solutions, in ID order, or
// nil if the scan did not read it.
func (b *Block) Column(i int) []byte { return b.part[i] }

// MayHold reports whether some solution of the block may hold value v at
// cell i: false only when the synopsis says none does.
func (b *Block) MayHold(i int, v byte) bool {
	if b.syn == nil || int(v) >= b.t.Bits {
		return true
	}
	bit := i*b.t.Bits + int(v)
	return b.syn[bit>>3]&(1<<(bit&7)) != 0
}

// Only returns the one value every solution of the block holds at cell i,
// when the synopsis says there is one: the block's whole column is then
// known without reading it.
func (b *Block) Only(i int) (v byte, ok bool) {
	if b.syn == nil {
		return 0, false
	}
	found := -1
	for x := range b.t.Bits {
		bit := i*b.t.Bits + x
		if b.syn[bit>>3]&(1<<(bit&7)) != 0 {
			if found >= 0 {
				return 0, false
			}
			found = x
		}
	}
	return byte(found), found >= 0
}

// Solution returns the block's solution k (0-based), its cells gathered
// into cells (CellBytes long), which it keeps. The scan must have read
// every cell and the class entries.
func (b *Block) Solution(k int, cells []byte) StoredSolution {
	for i := range cells {
		cells[i] = b.part[i][k]
	}
	d := b.t.Digits
	return StoredSolution{ID: b.First + int64(k), Cells: cells, entry: b.syms[k*d : (k+1)*d], t: b.t}
}

// ClassIDs appends to dst the class of each of the block's solutions, in
// order, 0 for a class entry that is not a number (verify names it): the
// scan must have read the class entries.
func (b *Block) ClassIDs(dst []int64) []int64 {
	d := b.t.Digits
	if b.t.Layout != 3 {
		for k := range b.N {
			id, _ := b.ClassOf(k)
			dst = append(dst, id)
		}
		return dst
	}
	for e := b.syms; len(e) >= d; e = e[d:] {
		var v int64
		bad := byte(0)
		for _, c := range e[:d] {
			digit := c - base64Zero
			bad |= digit & 0xc0 // a character outside '0' to 'o'
			v = v<<6 | int64(digit&63)
		}
		if bad != 0 {
			v = 0
		}
		dst = append(dst, v>>3)
	}
	return dst
}

// ClassOf returns the class of the block's solution k (0-based); ok is
// false for a class entry that is not a number (verify names it).
func (b *Block) ClassOf(k int) (id int64, ok bool) {
	d := b.t.Digits
	classSym, ok := b.t.classEntry(b.syms[k*d : (k+1)*d])
	return classSym >> 3, ok
}

// damagedBlock is the error of a block whose bytes are not whole solutions.
type damagedBlock struct{ error }

// decode calls fn for each solution of one block row.
func (b blockTable) decode(first int64, cells, syms []byte, fn func(StoredSolution) error) error {
	n := len(cells) / b.CellBytes
	if n == 0 || n > maxBlockSolutions || len(cells) != n*b.CellBytes || len(syms) != n*b.Digits {
		return damagedBlock{fmt.Errorf("solution block %d is damaged: %d cell bytes and %d class bytes are not whole solutions of %d cells and %d digits",
			first, len(cells), len(syms), b.CellBytes, b.Digits)}
	}
	for k := range n {
		s := StoredSolution{ID: first + int64(k), Cells: cells[k*b.CellBytes : (k+1)*b.CellBytes], entry: syms[k*b.Digits : (k+1)*b.Digits], t: &b}
		if err := fn(s); err != nil {
			return err
		}
	}
	return nil
}

// extent reads every block and returns how many solutions they hold and the
// lowest and highest solution ID (zeros if there is none).
func (b blockTable) extent(ctx context.Context, db rowQueryer) (count, minID, maxID int64, err error) {
	err = db.QueryRowContext(ctx, fmt.Sprintf("SELECT coalesce(sum(length(cells)), 0) / %[1]d, coalesce(min(first_id), 0), coalesce(max(first_id + length(cells) / %[1]d - 1), 0) FROM %[2]s",
		b.CellBytes, b.Table)).Scan(&count, &minID, &maxID)
	return count, minID, maxID, err
}

// Cells returns the cells of one solution, or nil if no block holds it.
func (b blockTable) Cells(ctx context.Context, db rowQueryer, id int64) ([]byte, error) {
	var cells []byte
	if b.columnar() {
		var first int64
		var all []byte
		err := db.QueryRowContext(ctx, "SELECT first_id, cells FROM "+b.Table+" WHERE first_id <= ? ORDER BY first_id DESC LIMIT 1", id).Scan(&first, &all)
		n := len(all) / b.CellBytes
		if errors.Is(err, sql.ErrNoRows) || err == nil && (len(all) != n*b.CellBytes || id-first >= int64(n)) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		cells = make([]byte, b.CellBytes)
		for i := range cells {
			cells[i] = all[i*n+int(id-first)]
		}
		return cells, nil
	}
	err := db.QueryRowContext(ctx, "SELECT substr(cells, (? - first_id) * ? + 1, ?) FROM "+b.Table+" WHERE first_id <= ? ORDER BY first_id DESC LIMIT 1",
		id, b.CellBytes, b.CellBytes, id).Scan(&cells)
	if errors.Is(err, sql.ErrNoRows) || len(cells) != b.CellBytes {
		return nil, nil
	}
	return cells, err
}

// blockLayout finds the layout of a puzzle's solution blocks in schema
// ("main", or an attached shard): 3 with a block index, 2 with a synopsis
// column, else 1.
func blockLayout(ctx context.Context, db rowQueryer, schema, puzzle string) (int, error) {
	var n int
	err := db.QueryRowContext(ctx, "SELECT count(*) FROM "+schema+".sqlite_master WHERE type = 'table' AND name = ?", blockIndexTable(puzzle)).Scan(&n)
	if err != nil || n > 0 {
		return 3, err
	}
	synopsis, err := hasColumn(ctx, db, schema, blocksTable(puzzle), "synopsis")
	if synopsis {
		return 2, err
	}
	return 1, err
}

// hasColumn reports whether table in schema ("main", or an attached
// shard) has the column, generated columns included (table_info leaves
// them out).
func hasColumn(ctx context.Context, db rowQueryer, schema, table, column string) (bool, error) {
	var n int
	err := db.QueryRowContext(ctx, "SELECT count(*) FROM pragma_table_xinfo(?, ?) WHERE name = ?", table, schema, column).Scan(&n)
	return n > 0, err
}

// blockDigits is the width of the class entries of blocks of layout with
// this many classes.
func blockDigits(classes int64, layout int) int {
	if layout == 3 {
		return classSymDigits64(classes)
	}
	return classSymDigits(classes)
}

// storedBlocks describes the stored blocks of p, of whichever layout.
func storedBlocks(ctx context.Context, db rowQueryer, p canon.Puzzle, classes int64) (blockTable, error) {
	layout, err := blockLayout(ctx, db, "main", p.String())
	if err != nil || layout == 3 {
		return puzzleBlocks(p, classes), err
	}
	return olderBlocks(p, classes, layout), nil
}

// hasBlocks reports whether a puzzle's solutions are stored in blocks; a
// puzzle built by a solcat before them has one row per solution in a table
// named like the view (solutions_queens_8), which reads the same.
func hasBlocks(ctx context.Context, db sqlx.QueryerContext, puzzle string) (bool, error) {
	return hasTable(ctx, db, blocksTable(puzzle))
}
