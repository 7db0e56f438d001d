// Package check reads solutions in the forms people have them and says of
// each whether it is right, why not, and where a right one sits in the
// catalog: `solcat check`. Reading and judging need canon alone, so any
// board solcat's notation allows is checked; the solution ID and class come
// from the catalog where the puzzle is stored.
//
// The forms (one puzzle per input):
//
//   - USACO lines: a queens solution per line, the 1-based column of each
//     row's queen ("2 4 6 1 3 5");
//   - a magic square as N lines of N numbers, or one line of N² numbers;
//   - solcat's own records: CSV with its header (list, export, classes,
//     check), JSON (one document, an array) or JSON lines;
//   - a USACO Checker Challenge answer: solutions, then a line with the
//     total alone.
//
// Without a puzzle named, the input decides: the JSON keys (queens, grid)
// or the CSV header (row1.., r1c1..) say the kind; plain numbers are queens
// lines unless most numbers of the first paragraph (lines up to a blank
// one) are larger than the count of numbers on their line, as in a magic
// square.
package check

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"solcat/canon"
)

// MaxMagic is the largest magic order read: a cell's value is a byte in
// solcat's storage and canonical forms, and 15² is the last square that
// fits.
const MaxMagic = 15

// MaxLine is the longest line read, in bytes, outside JSON: far more than
// any solution takes. Longer lines are refused; every other input is read
// as a stream, in memory of a size that does not grow with the input's.
const MaxLine = 64 << 10

// ErrUnreadable is what every error of reading an input is (errors.Is).
var ErrUnreadable = errors.New("input cannot be read")

// ReadError says where and why an input cannot be read.
type ReadError struct {
	Line    int // 0: the input as a whole
	Problem string
	Form    bool // the input's form is not one check reads (not a file that cannot be opened)
}

func (e *ReadError) Error() string {
	if e.Line == 0 {
		return e.Problem
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Problem)
}

// Is makes every ReadError an ErrUnreadable.
func (e *ReadError) Is(target error) bool { return target == ErrUnreadable }

func unreadable(line int, format string, args ...any) error {
	return &ReadError{Line: line, Problem: fmt.Sprintf(format, args...), Form: true}
}

// Hint is what the command line says of the puzzle: its kind, and its size
// if given (0 if not). The zero Hint leaves both to the input.
type Hint struct {
	Kind canon.Kind
	N    int
}

// ParseHint reads a puzzle named on the command line: KIND or KIND:N.
func ParseHint(text string) (Hint, error) {
	switch k := canon.Kind(strings.ToLower(text)); k {
	case canon.Magic, canon.Queens:
		return Hint{Kind: k}, nil
	}
	p, err := canon.ParsePuzzle(text)
	if err != nil {
		return Hint{}, err
	}
	if p.Kind == canon.Magic && p.N > MaxMagic {
		return Hint{}, fmt.Errorf("%w %q: magic squares are checked up to order %d (a value is a byte)", canon.ErrNotation, text, MaxMagic)
	}
	return Hint{Kind: p.Kind, N: p.N}, nil
}

// Form is how an input is written.
type Form string

const (
	Lines Form = "lines" // plain numbers: USACO lines, magic squares
	CSV   Form = "csv"   // solcat's CSV, with its header
	JSON  Form = "json"  // solcat's JSON document or JSON lines
)

// Entry is one solution as given.
type Entry struct {
	Line    int   // where it starts, 1-based
	Numbers []int // as written: the queens' 1-based columns, or a square's values row by row
	// Shape, if not empty, says how the entry is not of the puzzle's shape
	// (a row too short, a row missing); its numbers are then not judged.
	Shape string
}

// Total is the count an answer gives (a USACO answer's last line).
type Total struct {
	Line  int
	Value int64
}

// Input is a read input: its puzzle, its entries, its total if any.
type Input struct {
	Puzzle  canon.Puzzle
	Form    Form
	Entries []Entry
	Total   *Total
}

// puzzleOf settles the puzzle from the hint and what the input shows: its
// kind (if the hint has none) and its size n (if the hint has none).
func puzzleOf(hint Hint, kind canon.Kind, n, line int) (canon.Puzzle, error) {
	if hint.Kind != "" && kind != "" && hint.Kind != kind {
		return canon.Puzzle{}, unreadable(line, "this is a %s record, not %s", kind, hint.Kind)
	}
	if hint.Kind != "" {
		kind = hint.Kind
	}
	if hint.N != 0 {
		n = hint.N
	}
	limit := canon.MaxN
	if kind == canon.Magic {
		limit = MaxMagic
	}
	if n < 1 || n > limit {
		return canon.Puzzle{}, unreadable(line, "a %s board of size %d: solcat checks sizes 1 to %d", kind, n, limit)
	}
	return canon.Puzzle{Kind: kind, N: n}, nil
}

// numbers reads the whole numbers of a line, separated by spaces or tabs.
func numbers(text string, line int) ([]int, error) {
	fields := strings.Fields(text)
	out := make([]int, len(fields))
	for i, f := range fields {
		v, err := strconv.Atoi(f)
		if err != nil {
			return nil, unreadable(line, "%q is not a whole number; write a solution as numbers separated by spaces", clip(f))
		}
		out[i] = v
	}
	return out, nil
}

// clip shortens a piece of input quoted in a message.
func clip(s string) string {
	if len(s) > 20 {
		return s[:20] + "..."
	}
	return s
}

type numberLine struct {
	line int
	nums []int
}

// looksMagic reports whether most numbers of a paragraph are larger than
// the count of numbers on their line: in a magic square of order N all but
// N of every N² are, in a queens line none but a mistake is.
func looksMagic(para []numberLine) bool {
	above, all := 0, 0
	for _, l := range para {
		for _, v := range l.nums {
			if v > len(l.nums) {
				above++
			}
		}
		all += len(l.nums)
	}
	return 2*above > all
}

// cellColumns finds the cell columns of a solcat CSV header: row1..rowN
// (queens) or r1c1..rNcN (magic), as list, export and check write them, or
// the older names rN and cR_C (of Parquet files written as CSV), or one
// column "queens" or "grid" of numbers separated by spaces (check's CSV
// of earlier solcats).
func cellColumns(header []string) (kind canon.Kind, cols []int, n int) {
	for i, h := range header {
		h = strings.TrimSpace(strings.ToLower(h))
		if h == "queens" || h == "grid" {
			kind = canon.Queens
			if h == "grid" {
				kind = canon.Magic
			}
			return kind, []int{i}, 0
		}
		for _, k := range []canon.Kind{canon.Queens, canon.Magic} {
			if _, _, ok := canon.ParseCellName(k, h); ok && (kind == "" || kind == k) {
				kind = k
				cols = append(cols, i)
				break
			}
		}
	}
	n = len(cols)
	if kind == canon.Magic {
		n = int(math.Sqrt(float64(len(cols))))
	}
	return kind, cols, n
}

// record is the part of a solcat JSON record check reads.
type record struct {
	Puzzle string  `json:"puzzle"`
	Queens []int   `json:"queens"`
	Grid   [][]int `json:"grid"`
	Total  *int64  `json:"total"`
}
