package catalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"github.com/jmoiron/sqlx"
)

// maxBlockSolutions is the most solutions a block row holds: the number of
// rows in the block_slots table, which the solutions views join with.
const maxBlockSolutions = 1024

// blockBytes is how many bytes of solutions a block row carries: with the
// row's own few bytes, the most that fits in a 4 KiB page without overflow
// pages (which the views would copy out once per solution).
const blockBytes = 4000

// solutionsPerBlock is how many solutions fill a block of a puzzle whose
// solutions have cellBytes cells and digits-wide class_syms entries.
func solutionsPerBlock(cellBytes, digits int) int {
	return min(maxBlockSolutions, max(1, blockBytes/(cellBytes+digits)))
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

// blockTable reads the solution blocks of one puzzle.
type blockTable struct {
	Table     string // the blocks table
	CellBytes int    // the length of one solution's cells
	Digits    int    // the width of one class_syms entry
}

// puzzleBlocks describes the blocks of a puzzle with the given cell length
// and number of classes.
func puzzleBlocks(puzzle string, cellBytes int, classes int64) blockTable {
	return blockTable{Table: blocksTable(puzzle), CellBytes: cellBytes, Digits: classSymDigits(classes)}
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
	rows, err := db.QueryContext(ctx, "SELECT first_id, cells, class_syms FROM "+b.Table+" WHERE first_id > ? AND first_id <= ? ORDER BY first_id",
		from-maxBlockSolutions, to)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var first int64
		var cells, syms sql.RawBytes // valid until the next row, as Cells promises
		if err := rows.Scan(&first, &cells, &syms); err != nil {
			return err
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
	err := db.QueryRowContext(ctx, "SELECT substr(cells, (? - first_id) * ? + 1, ?) FROM "+b.Table+" WHERE first_id <= ? ORDER BY first_id DESC LIMIT 1",
		id, b.CellBytes, b.CellBytes, id).Scan(&cells)
	if errors.Is(err, sql.ErrNoRows) || len(cells) != b.CellBytes {
		return nil, nil
	}
	return cells, err
}

// hasBlocks reports whether a puzzle's solutions are stored in blocks; a
// puzzle built by a solcat before them has one row per solution in a table
// named like the view (solutions_queens_8), which reads the same.
func hasBlocks(ctx context.Context, db sqlx.QueryerContext, puzzle string) (bool, error) {
	return hasTable(ctx, db, blocksTable(puzzle))
}
