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

// blockBytes is how many bytes of solutions a block row carries: with the
// row's own few bytes, the most that fits in a 4 KiB page without overflow
// pages (which the views would copy out once per solution).
const blockBytes = 4000

// columnBlockBytes is blockBytes for column blocks, whose synopsis takes
// some of the page: SQLite keeps a row of up to 4,061 bytes on a 4 KiB
// page, and the row's header and number take under 21 of them.
const columnBlockBytes = 4040

// solutionsPerBlock is how many solutions fill a column block of a puzzle
// whose solutions have cellBytes cells, digits-wide class_syms entries and
// a synopsis of synopsisBytes: never fewer than a row-major block held.
func solutionsPerBlock(cellBytes, digits, synopsisBytes int) int {
	return min(maxBlockSolutions, max(1, (columnBlockBytes-synopsisBytes)/(cellBytes+digits)))
}

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

// pow10 is 10 to the k.
func pow10(k int) int64 {
	p := int64(1)
	for range k {
		p *= 10
	}
	return p
}

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
// (Columnar) holds its solutions' cells column by column: first every
// solution's cell 0, then every solution's cell 1, and so on, so that a
// scan testing k cells reads k runs of bytes; its synopsis has a bit per
// cell and value that is set when some solution of the block holds the
// value there, so that a scan skips a block that cannot match. A
// catalog made before column blocks has row-major blocks (each solution's
// cells in turn) and no synopsis: they are read as they are.
type blockTable struct {
	Table     string // the blocks table
	CellBytes int    // the length of one solution's cells
	Digits    int    // the width of one class_syms entry
	Columnar  bool   // column blocks with a synopsis, or row-major blocks
	Bits      int    // Columnar: the synopsis bits of one cell
}

// puzzleBlocks describes the column blocks of p with this many classes.
func puzzleBlocks(p canon.Puzzle, classes int64) blockTable {
	return blockTable{Table: blocksTable(p.String()), CellBytes: p.Len(), Digits: classSymDigits(classes), Columnar: true, Bits: synopsisBits(p)}
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
	entry []byte // class_id * 8 + symmetry in decimal, read by Class
}

// Class returns the solution's class ID and the symmetry that carries the
// class's canonical form onto it. Scans that need neither skip the parsing.
func (s StoredSolution) Class() (classID int64, symmetry int, err error) {
	classSym, ok := parseDigits(s.entry)
	if !ok {
		return 0, 0, fmt.Errorf("solution %d is damaged: its class entry %q is not a number", s.ID, s.entry)
	}
	return classSym >> 3, int(classSym & 7), nil
}

// Scan calls fn for the solutions with IDs from..to (inclusive), in ID
// order, reading whole blocks. A damaged block stops it with an error.
func (b blockTable) Scan(ctx context.Context, db rowQueryer, from, to int64, fn func(StoredSolution) error) error {
	return b.ScanReporting(ctx, db, from, to, fn, nil)
}

// ScanReporting is Scan that hands a damaged block (one whose bytes are not
// whole solutions) to damaged, if not nil, and goes on with the next.
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
		if b.Columnar && len(cells)%b.CellBytes == 0 {
			n := len(cells) / b.CellBytes
			// A check: a synopsis that says less than its block would hide
			// solutions from scans. The solutions are still read: a check
			// names what is wrong with them too.
			if damaged != nil {
				if check = b.appendSynopsis(check[:0], cells, n); string(check) != string(syn) {
					damaged(damagedBlock{fmt.Errorf("solution block %d is damaged: its synopsis does not match its cells", first)})
				}
			}
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
	if b.Columnar {
		return "synopsis"
	}
	return "NULL"
}

// Block is one block of stored solutions as a scan reads it: each cell's
// values for all of the block's solutions together, whatever the layout
// it is stored in. It is valid only during the callback that hands it
// over.
type Block struct {
	First int64 // the ID of its first solution
	N     int   // its solutions
	cols  []byte
	syms  []byte
	syn   []byte // nil for a row-major block: no synopsis
	t     *blockTable
	part  [][]byte // from BlockColumns: the cells read, by cell; nil for the others
}

// Column returns cell i of each of the block's solutions, in ID order.
// A block from BlockColumns has only the cells asked for.
func (b *Block) Column(i int) []byte {
	if b.part != nil {
		return b.part[i]
	}
	return b.cols[i*b.N : (i+1)*b.N]
}

// MayHold reports whether some solution of the block may hold value v at
// cell i: false only when the synopsis says none does.
func (b *Block) MayHold(i int, v byte) bool {
	if b.syn == nil || int(v) >= b.t.Bits {
		return true
	}
	bit := i*b.t.Bits + int(v)
	return b.syn[bit>>3]&(1<<(bit&7)) != 0
}

// Solution returns the block's solution k (0-based), its cells gathered
// into cells (CellBytes long), which it keeps.
func (b *Block) Solution(k int, cells []byte) StoredSolution {
	for i := range cells {
		cells[i] = b.cols[i*b.N+k]
	}
	d := b.t.Digits
	return StoredSolution{ID: b.First + int64(k), Cells: cells, entry: b.syms[k*d : (k+1)*d]}
}

// solutionsIn is how many solutions a block row with these lengths of
// cells, class entries and synopsis holds; ok is false when they are not
// whole solutions (a damaged block). syms < 0: the entries were not read.
func (b blockTable) solutionsIn(cells, syms, syn int) (n int, ok bool) {
	n = cells / b.CellBytes
	return n, n > 0 && n <= maxBlockSolutions && cells == n*b.CellBytes && (syms < 0 || syms == n*b.Digits) && (!b.Columnar || syn == b.synopsisBytes())
}

// damagedRow is the error of a block row whose lengths are not whole
// solutions.
func (b blockTable) damagedRow(first int64, cells, syms, syn int) error {
	return fmt.Errorf("solution block %d is damaged: %d cell bytes, %d class bytes and %d synopsis bytes are not whole solutions of %d cells and %d digits",
		first, cells, syms, syn, b.CellBytes, b.Digits)
}

// Blocks calls fn, in ID order, for each block that holds a solution with
// an ID from..to; the caller picks the solutions in range. A damaged block
// stops it with an error.
func (b blockTable) Blocks(ctx context.Context, db rowQueryer, from, to int64, fn func(*Block) error) error {
	rows, err := db.QueryContext(ctx, "SELECT first_id, cells, class_syms, "+b.synopsisColumn()+" FROM "+b.Table+" WHERE first_id > ? AND first_id <= ? ORDER BY first_id",
		from-maxBlockSolutions, to)
	if err != nil {
		return err
	}
	defer rows.Close()
	var colMajor []byte
	blk := &Block{t: &b}
	for rows.Next() {
		var cells, syms, syn sql.RawBytes
		if err := rows.Scan(&blk.First, &cells, &syms, &syn); err != nil {
			return err
		}
		n, ok := b.solutionsIn(len(cells), len(syms), len(syn))
		if !ok {
			return b.damagedRow(blk.First, len(cells), len(syms), len(syn))
		}
		if blk.First+int64(n) <= from {
			continue
		}
		blk.N, blk.syms, blk.cols, blk.syn = n, syms, cells, nil
		if b.Columnar {
			blk.syn = syn
		} else {
			colMajor = slices.Grow(colMajor[:0], len(cells))[:len(cells)]
			transpose(colMajor, cells, n, b.CellBytes)
			blk.cols = colMajor
		}
		if err := fn(blk); err != nil {
			return err
		}
	}
	return rows.Err()
}

// ClassOf returns the class of the block's solution k (0-based); ok is
// false for a class entry that is not a number (verify names it).
func (b *Block) ClassOf(k int) (id int64, ok bool) {
	d := b.t.Digits
	classSym, ok := parseDigits(b.syms[k*d : (k+1)*d])
	return classSym >> 3, ok
}

// BlockColumns is Blocks that reads only the given cells of each block
// (with its synopsis), and the class entries if classes is set: SQLite
// hands over a few runs of bytes, not the whole block. The blocks it hands
// over have no solutions to read whole (Solution). Row-major blocks are
// read whole.
func (b blockTable) BlockColumns(ctx context.Context, db rowQueryer, from, to int64, cells []int, classes bool, fn func(*Block) error) error {
	if !b.Columnar {
		return b.Blocks(ctx, db, from, to, fn)
	}
	c := strconv.Itoa(b.CellBytes)
	q := "SELECT first_id, length(cells), synopsis, " + map[bool]string{true: "class_syms", false: "NULL"}[classes]
	for _, i := range cells {
		q += ", substr(cells, " + strconv.Itoa(i) + " * (length(cells) / " + c + ") + 1, length(cells) / " + c + ")"
	}
	rows, err := db.QueryContext(ctx, q+" FROM "+b.Table+" WHERE first_id > ? AND first_id <= ? ORDER BY first_id", from-maxBlockSolutions, to)
	if err != nil {
		return err
	}
	defer rows.Close()
	blk := &Block{t: &b, part: make([][]byte, b.CellBytes)}
	dest := make([]any, 4+len(cells))
	raw := make([]sql.RawBytes, len(cells))
	var length int
	var syn, syms sql.RawBytes
	dest[0], dest[1], dest[2], dest[3] = &blk.First, &length, &syn, &syms
	for j := range raw {
		dest[4+j] = &raw[j]
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		symBytes := -1 // not read
		if classes {
			symBytes = len(syms)
		}
		n, ok := b.solutionsIn(length, symBytes, len(syn))
		if !ok {
			return b.damagedRow(blk.First, length, len(syms), len(syn))
		}
		if blk.First+int64(n) <= from {
			continue
		}
		blk.N, blk.syn, blk.syms = n, syn, syms
		for j, i := range cells {
			blk.part[i] = raw[j]
		}
		if err := fn(blk); err != nil {
			return err
		}
	}
	return rows.Err()
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
		s := StoredSolution{ID: first + int64(k), Cells: cells[k*b.CellBytes : (k+1)*b.CellBytes], entry: syms[k*b.Digits : (k+1)*b.Digits]}
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
	if b.Columnar {
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

// hasSynopsis reports whether a blocks table is of column blocks, which
// have a synopsis column; row-major blocks have none.
func hasSynopsis(ctx context.Context, db rowQueryer, schema, table string) (bool, error) {
	var n int
	err := db.QueryRowContext(ctx, "SELECT count(*) FROM pragma_table_info(?, ?) WHERE name = 'synopsis'", table, schema).Scan(&n)
	return n > 0, err
}

// hasBlocks reports whether a puzzle's solutions are stored in blocks; a
// puzzle built by a solcat before them has one row per solution in a table
// named like the view (solutions_queens_8), which reads the same.
func hasBlocks(ctx context.Context, db sqlx.QueryerContext, puzzle string) (bool, error) {
	return hasTable(ctx, db, blocksTable(puzzle))
}
