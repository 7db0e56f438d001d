package check

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"solcat/canon"
)

// Scan reads an input as a stream, handing each entry to emit in order,
// and returns the input's puzzle, form and total (its Entries left empty).
// Its memory does not grow with the input. The error, if any, is a
// *ReadError, or emit's.
func Scan(r io.Reader, hint Hint, emit func(Entry) error) (Input, error) {
	br := bufio.NewReaderSize(r, MaxLine+4)
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\ufeff")) {
		br.Discard(3)
	}
	head, err := br.Peek(MaxLine)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return Input{}, &ReadError{Problem: fmt.Sprintf("cannot read the input: %v", err)}
	}
	trimmed := bytes.TrimLeft(head, " \t\r\n\ufeff")
	entries := 0
	count := func(e Entry) error { entries++; return emit(e) }
	var in Input
	switch {
	case len(trimmed) == 0 && len(head) < MaxLine:
		return Input{}, unreadable(0, "the input is empty")
	case len(trimmed) == 0:
		return Input{}, unreadable(0, "the first %d KiB of the input are blank", MaxLine>>10)
	case trimmed[0] == '{' || trimmed[0] == '[':
		in, err = scanJSON(br, hint, count)
	default:
		first, _, _ := bytes.Cut(trimmed, []byte("\n"))
		if bytes.ContainsRune(first, ',') {
			in, err = scanCSV(br, hint, count)
		} else {
			in, err = scanLines(br, hint, count)
		}
	}
	if err != nil {
		return Input{}, err
	}
	if entries == 0 {
		return Input{}, unreadable(0, "the input holds no solution")
	}
	return in, nil
}

// Parse reads a whole input held in memory: Scan, the entries kept.
func Parse(data []byte, hint Hint) (Input, error) {
	var entries []Entry
	in, err := Scan(bytes.NewReader(data), hint, func(e Entry) error {
		entries = append(entries, e)
		return nil
	})
	in.Entries = entries
	return in, err
}

// firstLines is how many lines of the first paragraph of plain numbers
// decide whether they are queens or magic squares.
const firstLines = 1024

// lineEvent is a line of numbers, or a blank line (brk), which ends a
// paragraph.
type lineEvent struct {
	line numberLine
	brk  bool
}

// lineSource reads an input line by line.
type lineSource struct {
	sc   *bufio.Scanner
	line int
	back []lineEvent // read ahead, to be read again
}

func newLineSource(r io.Reader) *lineSource {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	return &lineSource{sc: sc}
}

// next is the next line or blank line; false at the end.
func (s *lineSource) next() (lineEvent, bool, error) {
	if len(s.back) > 0 {
		ev := s.back[0]
		s.back = s.back[1:]
		return ev, true, nil
	}
	if !s.sc.Scan() {
		switch err := s.sc.Err(); {
		case errors.Is(err, bufio.ErrTooLong):
			return lineEvent{}, false, unreadable(s.line+1, "a line longer than %d KiB; a solution takes a line of a few hundred characters", MaxLine>>10)
		case err != nil:
			return lineEvent{}, false, &ReadError{Problem: fmt.Sprintf("cannot read the input: %v", err)}
		}
		return lineEvent{}, false, nil
	}
	s.line++
	text := strings.TrimSpace(s.sc.Text())
	if text == "" {
		return lineEvent{brk: true}, true, nil
	}
	nums, err := numbers(text, s.line)
	if err != nil {
		return lineEvent{}, false, err
	}
	return lineEvent{line: numberLine{s.line, nums}}, true, nil
}

// moreLines reports whether a line of numbers follows, blank lines aside;
// what it read is read again.
func (s *lineSource) moreLines() (bool, error) {
	var read []lineEvent
	defer func() { s.back = append(read, s.back...) }()
	for {
		ev, ok, err := s.next()
		if err != nil || !ok {
			return false, err
		}
		read = append(read, ev)
		if !ev.brk {
			return true, nil
		}
	}
}

// scanLines reads plain numbers: queens lines or magic squares, split into
// paragraphs by blank lines; a last line holding one number after a
// solution is the total.
func scanLines(r io.Reader, hint Hint, emit func(Entry) error) (Input, error) {
	src := newLineSource(r)
	// The first paragraph (its first firstLines lines) settles the puzzle.
	var first []numberLine
	ended := false // by a blank line
	for len(first) < firstLines {
		ev, ok, err := src.next()
		if err != nil {
			return Input{}, err
		}
		if !ok {
			break
		}
		if ev.brk {
			if len(first) > 0 {
				ended = true
				break
			}
			continue
		}
		first = append(first, ev.line)
	}
	if len(first) == 0 {
		return Input{}, unreadable(0, "the input is empty")
	}
	more, err := src.moreLines()
	if err != nil {
		return Input{}, err
	}
	sample := first
	if !more && len(first) > 1 && len(first[len(first)-1].nums) == 1 {
		sample = first[:len(first)-1] // the total, not a solution
	}
	kind, n := hint.Kind, hint.N
	if kind == "" {
		kind = canon.Queens
		if looksMagic(sample) {
			kind = canon.Magic
		}
	}
	if n == 0 {
		n = len(sample[0].nums)
		if kind == canon.Magic {
			if r := int(math.Sqrt(float64(n))); r*r == n && len(sample) == 1 && n > 1 {
				n = r // a square on one line
			}
		}
	}
	p, err := puzzleOf(Hint{Kind: kind, N: n}, "", 0, sample[0].line)
	if err != nil {
		return Input{}, err
	}
	in := Input{Puzzle: p, Form: Lines}
	sq := squares{p: p, emit: emit}
	// A line of one number after another line is held back: the last one
	// is the total.
	var held *numberLine
	heldBreak, seen := false, 0
	handle := func(ev lineEvent) error {
		if ev.brk {
			if held != nil {
				heldBreak = true
				return nil
			}
			return sq.end()
		}
		if held != nil {
			if err := sq.line(*held); err != nil {
				return err
			}
			if heldBreak {
				if err := sq.end(); err != nil {
					return err
				}
			}
			held, heldBreak = nil, false
		}
		seen++
		if len(ev.line.nums) == 1 && seen > 1 {
			l := ev.line
			held = &l
			return nil
		}
		return sq.line(ev.line)
	}
	for _, l := range first {
		if err := handle(lineEvent{line: l}); err != nil {
			return Input{}, err
		}
	}
	if ended {
		if err := handle(lineEvent{brk: true}); err != nil {
			return Input{}, err
		}
	}
	for {
		ev, ok, err := src.next()
		if err != nil {
			return Input{}, err
		}
		if !ok {
			break
		}
		if err := handle(ev); err != nil {
			return Input{}, err
		}
	}
	if held != nil {
		in.Total = &Total{Line: held.line, Value: int64(held.nums[0])}
	}
	return in, sq.end()
}

// squares cuts lines into entries: for queens a line each; for magic
// squares a line of N² numbers is one square, otherwise N lines are, one
// row each, within a paragraph.
type squares struct {
	p    canon.Puzzle
	emit func(Entry) error
	cur  *Entry
	rows int
}

func (s *squares) line(l numberLine) error {
	p := s.p
	if p.Kind == canon.Queens || s.cur == nil && len(l.nums) == p.Len() && p.N > 1 {
		return s.emit(Entry{Line: l.line, Numbers: l.nums})
	}
	if s.cur == nil {
		s.cur, s.rows = &Entry{Line: l.line}, 0
	}
	if len(l.nums) != p.N && s.cur.Shape == "" {
		s.cur.Shape = fmt.Sprintf("row %d has %d numbers; %s needs %d a row (or all %d on one line)", s.rows+1, len(l.nums), p, p.N, p.Len())
	}
	s.cur.Numbers = append(s.cur.Numbers, l.nums...)
	if s.rows++; s.rows == p.N {
		e := *s.cur
		s.cur = nil
		return s.emit(e)
	}
	return nil
}

// end ends a paragraph: a square begun and not finished is an entry that
// says so.
func (s *squares) end() error {
	if s.cur == nil {
		return nil
	}
	e := *s.cur
	s.cur = nil
	if e.Shape == "" {
		e.Shape = fmt.Sprintf("%d rows; %s needs %d (a blank line ends a square)", s.rows, s.p, s.p.N)
	}
	return s.emit(e)
}

// longLines fails a read once a line runs past MaxLine bytes, so that a
// CSV record is never held whole however long it is.
type longLines struct {
	r    io.Reader
	run  int // bytes since the last newline
	line int
}

func (l *longLines) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for _, b := range p[:n] {
		if b == '\n' {
			l.run = 0
			l.line++
			continue
		}
		if l.run++; l.run > MaxLine {
			return 0, unreadable(l.line+1, "a line longer than %d KiB; a solution takes a line of a few hundred characters", MaxLine>>10)
		}
	}
	return n, err
}

// scanCSV reads solcat's CSV: a header naming the cell columns (or, with
// the puzzle named, rows without one, the last columns being the cells).
func scanCSV(r io.Reader, hint Hint, emit func(Entry) error) (Input, error) {
	cr := csv.NewReader(&longLines{r: r})
	cr.FieldsPerRecord = -1
	type row struct {
		fields []string
		line   int
	}
	next := func() (row, bool, error) {
		for {
			fields, err := cr.Read()
			if err == io.EOF {
				return row{}, false, nil
			}
			var re *ReadError
			if errors.As(err, &re) {
				return row{}, false, re
			}
			if err != nil {
				var perr *csv.ParseError
				line := 0
				if errors.As(err, &perr) {
					line = perr.Line
				}
				return row{}, false, unreadable(line, "not CSV as solcat writes it (%v)", errors.Unwrap(err))
			}
			if len(fields) == 1 && strings.TrimSpace(fields[0]) == "" {
				continue
			}
			line, _ := cr.FieldPos(0)
			return row{fields, line}, true, nil
		}
	}
	header, ok, err := next()
	if err != nil {
		return Input{}, err
	}
	if !ok {
		return Input{}, unreadable(0, "the input is empty")
	}
	kind, cols, n := cellColumns(header.fields)
	totalCol, puzzleCol := -1, -1
	for i, h := range header.fields {
		switch strings.TrimSpace(strings.ToLower(h)) {
		case "total":
			totalCol = i
		case "puzzle":
			puzzleCol = i
		}
	}
	// Rows read ahead to settle the puzzle, read again after.
	var ahead []row
	if cols == nil {
		if hint.N == 0 {
			return Input{}, unreadable(header.line, "a CSV without solcat's header (id,class,...,row1.. or r1c1..); add the header, or name the puzzle: solcat check queens:8 FILE")
		}
		p := canon.Puzzle{Kind: hint.Kind, N: hint.N}
		for i := range p.Len() {
			cols = append(cols, len(header.fields)-p.Len()+i)
		}
		kind, n = hint.Kind, hint.N
		ahead = append(ahead, header) // no header: the first row is a solution
	} else {
		// check's own CSV of earlier solcats: the size comes from the
		// first row's numbers.
		for len(ahead) < firstLines && (len(ahead) == 0 || len(cols) == 1 && n == 0) {
			rw, ok, err := next()
			if err != nil {
				return Input{}, err
			}
			if !ok {
				break
			}
			ahead = append(ahead, rw)
			if len(cols) == 1 && cols[0] < len(rw.fields) && rw.fields[cols[0]] != "" {
				nums, err := numbers(rw.fields[cols[0]], rw.line)
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
	if puzzleCol >= 0 && len(ahead) > 0 && puzzleCol < len(ahead[0].fields) && hint.N == 0 {
		if p, err := canon.ParsePuzzle(ahead[0].fields[puzzleCol]); err == nil {
			kind, n = p.Kind, p.N
		}
	}
	var in Input
	in.Form = CSV
	if in.Puzzle, err = puzzleOf(hint, kind, n, header.line); err != nil {
		return Input{}, err
	}
	handle := func(rw row) error {
		fields := rw.fields
		if totalCol >= 0 && totalCol < len(fields) && strings.TrimSpace(fields[totalCol]) != "" && fields[totalCol] != "NULL" {
			v, err := strconv.ParseInt(strings.TrimSpace(fields[totalCol]), 10, 64)
			if err != nil {
				return unreadable(rw.line, "the total %q is not a whole number", clip(fields[totalCol]))
			}
			in.Total = &Total{Line: rw.line, Value: v}
			return nil
		}
		e := Entry{Line: rw.line}
		for _, c := range cols {
			if c < 0 || c >= len(fields) {
				return unreadable(rw.line, "%d fields, the header has %d", len(fields), len(header.fields))
			}
			nums, err := numbers(fields[c], rw.line)
			if err != nil {
				return err
			}
			e.Numbers = append(e.Numbers, nums...)
		}
		return emit(e)
	}
	for _, rw := range ahead {
		if err := handle(rw); err != nil {
			return Input{}, err
		}
	}
	for {
		rw, ok, err := next()
		if err == nil && ok {
			err = handle(rw)
		}
		if err != nil {
			return Input{}, err
		}
		if !ok {
			return in, nil
		}
	}
}

// tracked keeps the bytes a JSON decoder has read and not yet passed, so
// that a record's line can be told without holding the input.
type tracked struct {
	r      io.Reader
	window []byte // the input from offset base on, as far as read
	base   int64
	lines  int // the line of offset base
}

func (t *tracked) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.window = append(t.window, p[:n]...)
	return n, err
}

// at passes spaces and commas from offset off on (the decoder has read
// that far): the first other byte there, 0 if none is read yet, and its
// line. Offsets passed to at only grow.
func (t *tracked) at(off int64) (byte, int) {
	i := int(off - t.base)
	for i < len(t.window) && strings.IndexByte(" \t\r\n,\ufeff", t.window[i]) >= 0 {
		i++
	}
	i = min(i, len(t.window))
	t.lines += bytes.Count(t.window[:i], []byte("\n"))
	t.window, t.base = t.window[i:], t.base+int64(i)
	if len(t.window) == 0 {
		return 0, t.lines
	}
	return t.window[0], t.lines
}

// scanJSON reads solcat's JSON: one document (an array of records, or one
// record such as show prints) or JSON lines, one record a line.
func scanJSON(r io.Reader, hint Hint, emit func(Entry) error) (Input, error) {
	t := &tracked{r: r, lines: 1}
	dec := json.NewDecoder(t)
	in := Input{Form: JSON}
	var kind canon.Kind
	settled := false
	handle := func(line int, rec record) error {
		var e Entry
		var k canon.Kind
		switch {
		case rec.Total != nil:
			in.Total = &Total{Line: line, Value: *rec.Total}
			return nil
		case rec.Queens != nil:
			k, e.Numbers = canon.Queens, rec.Queens
		case rec.Grid != nil:
			k = canon.Magic
			for i, row := range rec.Grid {
				if len(row) != len(rec.Grid) && e.Shape == "" {
					e.Shape = fmt.Sprintf("row %d has %d numbers, the grid %d rows", i+1, len(row), len(rec.Grid))
				}
				e.Numbers = append(e.Numbers, row...)
			}
		default:
			return unreadable(line, `a record without "queens" or "grid": give solutions as list, export or show print them`)
		}
		if kind != "" && k != kind {
			return unreadable(line, "a %s record among %s records; check one puzzle at a time", k, kind)
		}
		if !settled {
			kind = k
			n := len(rec.Queens) + len(rec.Grid)
			if p, err := canon.ParsePuzzle(rec.Puzzle); err == nil && p.Kind == k {
				n = p.N
			}
			var err error
			if in.Puzzle, err = puzzleOf(hint, kind, n, line); err != nil {
				return err
			}
			settled = true
		}
		e.Line = line
		return emit(e)
	}
	decode := func() error {
		_, line := t.at(dec.InputOffset())
		var rec record
		if err := dec.Decode(&rec); err != nil {
			return unreadable(line, "not a record as solcat writes it (%v)", err)
		}
		return handle(line, rec)
	}
	for {
		dec.More() // reads on to the next value
		c, line := t.at(dec.InputOffset())
		if c == 0 {
			break
		}
		if c != '[' {
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
			_, line := t.at(dec.InputOffset())
			return Input{}, unreadable(line, "not JSON: the array does not end (%v)", err)
		}
	}
	if !settled {
		return Input{}, unreadable(0, "the input holds no solution")
	}
	return in, nil
}
