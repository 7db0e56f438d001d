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
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"solcat/canon"
)

// MaxMagic is the largest magic order read: a cell's value is a byte in
// solcat's storage and canonical forms, and 15² is the last square that
// fits.
const MaxMagic = 15

// MaxInput is the most input read, in bytes: every entry is held to be
// judged before the first line is printed.
const MaxInput = 256 << 20

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

// Parse reads an input. The error, if any, is a *ReadError.
func Parse(data []byte, hint Hint) (Input, error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	var in Input
	var err error
	switch {
	case len(trimmed) == 0:
		return Input{}, unreadable(0, "the input is empty")
	case trimmed[0] == '{' || trimmed[0] == '[':
		in, err = parseJSON(data, hint)
	default:
		first, _, _ := bytes.Cut(trimmed, []byte("\n"))
		if bytes.ContainsRune(first, ',') {
			in, err = parseCSV(data, hint)
		} else {
			in, err = parseLines(data, hint)
		}
	}
	if err != nil {
		return Input{}, err
	}
	if len(in.Entries) == 0 {
		return Input{}, unreadable(0, "the input holds no solution")
	}
	return in, nil
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

// parseLines reads plain numbers: queens lines or magic squares, split into
// paragraphs by blank lines, and a last line holding one number after a
// solution is the total.
func parseLines(data []byte, hint Hint) (Input, error) {
	var paragraphs [][]numberLine
	var cur []numberLine
	for i, text := range strings.Split(string(data), "\n") {
		text = strings.TrimSpace(strings.TrimPrefix(text, "\ufeff"))
		if text == "" {
			if cur != nil {
				paragraphs, cur = append(paragraphs, cur), nil
			}
			continue
		}
		nums, err := numbers(text, i+1)
		if err != nil {
			return Input{}, err
		}
		cur = append(cur, numberLine{i + 1, nums})
	}
	if cur != nil {
		paragraphs = append(paragraphs, cur)
	}
	if len(paragraphs) == 0 {
		return Input{}, unreadable(0, "the input is empty")
	}
	var total *Total
	last := paragraphs[len(paragraphs)-1]
	if end := last[len(last)-1]; len(end.nums) == 1 && (len(last) > 1 || len(paragraphs) > 1) {
		total = &Total{Line: end.line, Value: int64(end.nums[0])}
		if last = last[:len(last)-1]; len(last) == 0 {
			paragraphs = paragraphs[:len(paragraphs)-1]
		} else {
			paragraphs[len(paragraphs)-1] = last
		}
	}
	first := paragraphs[0]
	kind, n := hint.Kind, hint.N
	if kind == "" {
		kind = canon.Queens
		if looksMagic(first) {
			kind = canon.Magic
		}
	}
	if n == 0 {
		n = len(first[0].nums)
		if kind == canon.Magic {
			if r := int(math.Sqrt(float64(n))); r*r == n && len(first) == 1 && n > 1 {
				n = r // a square on one line
			}
		}
	}
	p, err := puzzleOf(Hint{Kind: kind, N: n}, "", 0, first[0].line)
	if err != nil {
		return Input{}, err
	}
	in := Input{Puzzle: p, Form: Lines, Total: total}
	for _, para := range paragraphs {
		if p.Kind == canon.Queens {
			for _, l := range para {
				in.Entries = append(in.Entries, Entry{Line: l.line, Numbers: l.nums})
			}
			continue
		}
		in.Entries = append(in.Entries, squares(p, para)...)
	}
	return in, nil
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

// squares cuts a paragraph into magic squares: a line of N² numbers is one
// square, otherwise N lines are, one row each.
func squares(p canon.Puzzle, para []numberLine) []Entry {
	var out []Entry
	var cur *Entry
	rows := 0
	for _, l := range para {
		if cur == nil && len(l.nums) == p.Len() && p.N > 1 {
			out = append(out, Entry{Line: l.line, Numbers: l.nums})
			continue
		}
		if cur == nil {
			cur, rows = &Entry{Line: l.line}, 0
		}
		if len(l.nums) != p.N && cur.Shape == "" {
			cur.Shape = fmt.Sprintf("row %d has %d numbers; %s needs %d a row (or all %d on one line)", rows+1, len(l.nums), p, p.N, p.Len())
		}
		cur.Numbers = append(cur.Numbers, l.nums...)
		if rows++; rows == p.N {
			out, cur = append(out, *cur), nil
		}
	}
	if cur != nil {
		if cur.Shape == "" {
			cur.Shape = fmt.Sprintf("%d rows; %s needs %d (a blank line ends a square)", rows, p, p.N)
		}
		out = append(out, *cur)
	}
	return out
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

// parseCSV reads solcat's CSV: a header naming the cell columns (or, with
// the puzzle named, rows without one, the last columns being the cells).
func parseCSV(data []byte, hint Hint) (Input, error) {
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\ufeff"))))
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		var perr *csv.ParseError
		line := 0
		if errors.As(err, &perr) {
			line = perr.Line
		}
		return Input{}, unreadable(line, "not CSV as solcat writes it (%v)", errors.Unwrap(err))
	}
	var start, first int
	for first < len(rows) && len(rows[first]) == 1 && strings.TrimSpace(rows[first][0]) == "" {
		first++
	}
	kind, cols, n := cellColumns(rows[first])
	totalCol, puzzleCol := -1, -1
	for i, h := range rows[first] {
		switch strings.TrimSpace(strings.ToLower(h)) {
		case "total":
			totalCol = i
		case "puzzle":
			puzzleCol = i
		}
	}
	if cols != nil {
		start = first + 1
	} else {
		if hint.N == 0 {
			return Input{}, unreadable(first+1, "a CSV without solcat's header (id,class,...,row1.. or r1c1..); add the header, or name the puzzle: solcat check queens:8 FILE")
		}
		p := canon.Puzzle{Kind: hint.Kind, N: hint.N}
		for i := range p.Len() {
			cols = append(cols, len(rows[first])-p.Len()+i)
		}
		kind, n, start = hint.Kind, hint.N, first
	}
	var in Input
	in.Form = CSV
	lineOf := func(i int) int { return i + 1 }
	if cols != nil && len(cols) == 1 {
		// check's own CSV: the size comes from the first row's numbers.
		for i := start; i < len(rows) && n == 0; i++ {
			if cols[0] < len(rows[i]) && rows[i][cols[0]] != "" {
				nums, err := numbers(rows[i][cols[0]], lineOf(i))
				if err != nil {
					return Input{}, err
				}
				n = len(nums)
				if kind == canon.Magic {
					n = int(math.Sqrt(float64(n)))
				}
			}
		}
	}
	if puzzleCol >= 0 && start < len(rows) && puzzleCol < len(rows[start]) && hint.N == 0 {
		if p, err := canon.ParsePuzzle(rows[start][puzzleCol]); err == nil {
			kind, n = p.Kind, p.N
		}
	}
	in.Puzzle, err = puzzleOf(hint, kind, n, lineOf(first))
	if err != nil {
		return Input{}, err
	}
	for i := start; i < len(rows); i++ {
		row := rows[i]
		if len(row) == 1 && strings.TrimSpace(row[0]) == "" {
			continue
		}
		if totalCol >= 0 && totalCol < len(row) && strings.TrimSpace(row[totalCol]) != "" && row[totalCol] != "NULL" {
			v, err := strconv.ParseInt(strings.TrimSpace(row[totalCol]), 10, 64)
			if err != nil {
				return Input{}, unreadable(lineOf(i), "the total %q is not a whole number", clip(row[totalCol]))
			}
			in.Total = &Total{Line: lineOf(i), Value: v}
			continue
		}
		e := Entry{Line: lineOf(i)}
		for _, c := range cols {
			if c < 0 || c >= len(row) {
				return Input{}, unreadable(lineOf(i), "%d fields, the header has %d", len(row), len(rows[first]))
			}
			nums, err := numbers(row[c], lineOf(i))
			if err != nil {
				return Input{}, err
			}
			e.Numbers = append(e.Numbers, nums...)
		}
		in.Entries = append(in.Entries, e)
	}
	return in, nil
}

// record is the part of a solcat JSON record check reads.
type record struct {
	Puzzle string  `json:"puzzle"`
	Queens []int   `json:"queens"`
	Grid   [][]int `json:"grid"`
	Total  *int64  `json:"total"`
}

// parseJSON reads solcat's JSON: one document (an array of records, or one
// record such as show prints) or JSON lines, one record a line.
func parseJSON(data []byte, hint Hint) (Input, error) {
	// next skips spaces (and an array's commas) from offset: where the next
	// value starts, and its line.
	// The offsets only grow: the lines are counted from the last one on.
	counted, lines := 0, 1
	next := func(offset int64) (int, int) {
		i := int(offset)
		for i < len(data) && strings.IndexByte(" \t\r\n,\ufeff", data[i]) >= 0 {
			i++
		}
		lines += bytes.Count(data[counted:max(i, counted)], []byte("\n"))
		counted = max(i, counted)
		return i, lines
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	type located struct {
		line int
		rec  record
	}
	var recs []located
	decode := func() error {
		_, line := next(dec.InputOffset())
		var r record
		if err := dec.Decode(&r); err != nil {
			return unreadable(line, "not a record as solcat writes it (%v)", err)
		}
		recs = append(recs, located{line, r})
		return nil
	}
	for {
		at, line := next(dec.InputOffset())
		if at >= len(data) {
			break
		}
		if data[at] != '[' {
			if err := decode(); err != nil {
				return Input{}, err
			}
			continue
		}
		if _, err := dec.Token(); err != nil {
			return Input{}, unreadable(line, "not JSON (%v)", err)
		}
		for dec.More() {
			if err := decode(); err != nil {
				return Input{}, err
			}
		}
		if _, err := dec.Token(); err != nil {
			_, line := next(dec.InputOffset())
			return Input{}, unreadable(line, "not JSON: the array does not end (%v)", err)
		}
	}
	in := Input{Form: JSON}
	var kind canon.Kind
	n := 0
	for _, l := range recs {
		r := l.rec
		var e Entry
		var k canon.Kind
		switch {
		case r.Total != nil:
			in.Total = &Total{Line: l.line, Value: *r.Total}
			continue
		case r.Queens != nil:
			k, e.Numbers = canon.Queens, r.Queens
		case r.Grid != nil:
			k = canon.Magic
			for i, row := range r.Grid {
				if len(row) != len(r.Grid) && e.Shape == "" {
					e.Shape = fmt.Sprintf("row %d has %d numbers, the grid %d rows", i+1, len(row), len(r.Grid))
				}
				e.Numbers = append(e.Numbers, row...)
			}
		default:
			return Input{}, unreadable(l.line, `a record without "queens" or "grid": give solutions as list, export or show print them`)
		}
		if kind != "" && k != kind {
			return Input{}, unreadable(l.line, "a %s record among %s records; check one puzzle at a time", k, kind)
		}
		if kind == "" {
			kind, n = k, len(r.Queens)+len(r.Grid)
			if p, err := canon.ParsePuzzle(r.Puzzle); err == nil && p.Kind == k {
				n = p.N
			}
		}
		e.Line = l.line
		in.Entries = append(in.Entries, e)
	}
	if len(in.Entries) == 0 {
		return Input{}, unreadable(0, "the input holds no solution")
	}
	var err error
	in.Puzzle, err = puzzleOf(hint, kind, n, in.Entries[0].Line)
	return in, err
}

// Arguments reads check's arguments, [PUZZLE] [FILE|-]: a first argument
// that names a puzzle (KIND or KIND:N) is the puzzle, any other is the
// file (write ./queens:8 for a file of that name). No file, or "-", is the
// standard input.
func Arguments(first, second string) (hint Hint, file string, err error) {
	if first == "" {
		return Hint{}, "-", nil
	}
	hint, err = ParseHint(first)
	if err != nil && (strings.Contains(first, ":") && !strings.ContainsAny(first, "/.") || second != "") {
		return Hint{}, "", err // a puzzle misspelt
	}
	if err != nil {
		return Hint{}, first, nil
	}
	if second == "" {
		second = "-"
	}
	return hint, second, nil
}

// Read reads the input named by file ("-": stdin), at most MaxInput bytes.
func Read(file string, stdin io.Reader) ([]byte, error) {
	r, name := stdin, "the standard input"
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return nil, &ReadError{Problem: fmt.Sprintf("cannot read %s: %v; name a file of solutions, or - for the standard input", file, errors.Unwrap(err))}
		}
		defer f.Close()
		r, name = f, file
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	if err != nil {
		return nil, &ReadError{Problem: fmt.Sprintf("cannot read %s: %v", name, err)}
	}
	if len(data) > MaxInput {
		return nil, &ReadError{Problem: fmt.Sprintf("%s is larger than %d MiB; check it in parts", name, MaxInput>>20)}
	}
	return data, nil
}
