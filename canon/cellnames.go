package canon

import (
	"strconv"
	"strings"
)

// A cell has one name in every format, header, partition folder and web
// address: a queens board's row R is rowR (its value the 1-based column of
// the row's queen), a magic square's cell in row R, column C is rRcC (its
// value). Both are plain identifiers, so SQL (DuckDB) and pandas take them
// unquoted: WHERE r1c1 = 16, df.row1.
//
// Earlier solcats wrote rR and cR_C in Parquet files and read qR and cR_C
// in web addresses; ParseCellName still reads those names.

// CellName is the name of the i-th cell of p's solutions (row by row):
// rowR for queens, rRcC for magic squares. An i past p's cells goes on
// in the same order (queens: row N+1; magic: the next row's cells), so that
// a longer list of numbers than a solution has is still named.
func CellName(p Puzzle, i int) string {
	if p.Kind == Queens {
		return "row" + strconv.Itoa(i+1)
	}
	return "r" + strconv.Itoa(i/p.N+1) + "c" + strconv.Itoa(i%p.N+1)
}

// CellNames are the names of p's cells, row by row.
func CellNames(p Puzzle) []string {
	out := make([]string, p.Len())
	for i := range out {
		out[i] = CellName(p, i)
	}
	return out
}

// ParseCellName reads a cell's name for puzzles of kind k: rowR (or the
// older rR and qR) for queens, with col 0; rRcC (or the older cR_C) for
// magic squares. Numbers are written as CellName writes them (no sign
// but a minus, no leading zero); the name is case-sensitive. It does not
// check the board's size: row0 and r-1c1 are names of squares off any
// board, for the caller to refuse as such.
func ParseCellName(k Kind, name string) (row, col int, ok bool) {
	if k == Queens {
		for _, prefix := range []string{"row", "r", "q"} {
			if rest, found := strings.CutPrefix(name, prefix); found {
				row, ok = cellNumber(rest)
				return row, 0, ok
			}
		}
		return 0, 0, false
	}
	var r, c string
	if rest, found := strings.CutPrefix(name, "r"); found {
		r, c, ok = strings.Cut(rest, "c")
	} else if rest, found := strings.CutPrefix(name, "c"); found {
		r, c, ok = strings.Cut(rest, "_")
	}
	if !ok {
		return 0, 0, false
	}
	row, ok1 := cellNumber(r)
	col, ok2 := cellNumber(c)
	return row, col, ok1 && ok2
}

// cellNumber reads a row or column number of a cell's name, written as
// strconv.Itoa writes it.
func cellNumber(s string) (int, bool) {
	v, err := strconv.Atoi(s)
	return v, err == nil && strconv.Itoa(v) == s
}
