package check

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/dustin/go-humanize"

	"solcat/canon"
	"solcat/query/records"
)

// Write prints a report: in text a line for each entry and the total, then
// a summary; in json, jsonl and csv one record each, with the same fields
// (those that do not apply are null, or empty in CSV), so that check reads
// its own output back. The cells are as list writes them: "queens" or
// "grid" in JSON, a column each in CSV (row1..rowN, r1c1..rNcN, and on in
// the same order for an entry of more numbers than a solution has).
func Write(w io.Writer, format records.Format, headers bool, rep Report) error {
	widest := 0
	for _, res := range rep.Results {
		widest = max(widest, len(res.Entry.Numbers))
	}
	out := newWriter(w, format, headers, rep.Puzzle, widest)
	if err := out.results(rep.Results); err != nil {
		return err
	}
	return out.finish(rep.Total, rep.Unstored)
}

// writer prints a report as its entries are judged: widest is the most
// numbers an entry has (CSV has a column for each).
type writer struct {
	p            canon.Puzzle
	text         *bufio.Writer // for the text format
	out          *records.Printer
	r            recordOf
	valid, count int64
}

func newWriter(w io.Writer, format records.Format, headers bool, p canon.Puzzle, widest int) *writer {
	if format == records.Text {
		return &writer{p: p, text: bufio.NewWriter(w)}
	}
	r := recordOf{p: p, flat: format == records.CSV, cells: max(p.Len(), widest)}
	return &writer{p: p, r: r, out: records.NewPrinter(w, format, headers).Columns(r.object(0, nil, nil, 0, nil, nil, nil, nil))}
}

// results prints the next entries' results.
func (w *writer) results(results []Result) error {
	for _, res := range results {
		w.count++
		if res.Valid() {
			w.valid++
		}
		if w.text != nil {
			writeText(w.text, w.p, res)
			continue
		}
		given := res.Entry.Numbers
		if given == nil {
			given = []int{} // an entry, if an empty one: not the total's null
		}
		if err := w.out.Write(w.r.object(res.Entry.Line, res.Valid(), res.Problems, res.More, &res, given, nil, nil)); err != nil {
			return err
		}
	}
	if w.text != nil && w.text.Buffered() > 1<<20 {
		return w.text.Flush()
	}
	return nil
}

// finish prints the total's result, if any, and in text the summary.
func (w *writer) finish(tr *TotalResult, unstored string) error {
	if w.text != nil {
		writeSummary(w.text, w.p, tr, w.valid, w.count, unstored)
		return w.text.Flush()
	}
	if tr != nil {
		var valid, count any // null: no count is known to check against
		if tr.Known {
			valid, count = len(tr.Problems) == 0, tr.Count
		}
		if err := w.out.Write(w.r.object(tr.Line, valid, tr.Problems, 0, nil, nil, tr.Value, count)); err != nil {
			return err
		}
	}
	return w.out.Close()
}

// recordOf makes the records of a report on p: flat for CSV, with cells
// cell columns.
type recordOf struct {
	p     canon.Puzzle
	flat  bool
	cells int
}

// object is one record of check: line, puzzle, valid, problems (the first
// maxProblems) and problem_count (all of them), the solution's id, class,
// orbit, symmetry and props (from the catalog where it is stored), its
// cells as given (as list prints a solution's) and its class's canonical
// form, and for the total row the total given and the count.
func (r recordOf) object(line int, valid any, problems []string, more int, res *Result, given []int, total, count any) records.Object {
	p := r.p
	var why any = problems
	switch {
	case r.flat: // a CSV joins a list's items with spaces: the problems' own hold them apart no more
		why = strings.Join(problems, "; ")
	case problems == nil:
		why = []string{}
	}
	var id, class, orbit, symmetry, props, canonical any
	if res != nil && res.Cells != nil {
		orbit, symmetry, props, canonical = res.Orbit, res.Symmetry.String(), propNames(res.Props, r.flat), cellsOf(p, res.Canonical, r.flat)
		if s := res.Stored; s != nil {
			id, class, symmetry = s.ID, s.ClassID, s.Symmetry.String()
		}
	}
	o := records.Obj("line", line, "puzzle", p.String(), "valid", valid, "problems", why, "problem_count", len(problems)+more,
		"id", id, "class", class, "orbit", orbit, "symmetry", symmetry, "props", props)
	switch {
	case r.flat:
		for i := range r.cells {
			var v any // empty: the entry has no number here
			if i < len(given) {
				v = given[i]
			}
			o = append(o, records.Field{Name: canon.CellName(p, i), Value: v})
		}
	case p.Kind == canon.Queens:
		o = append(o, records.Field{Name: "queens", Value: numbersOf(p, given, false)})
	default:
		o = append(o, records.Field{Name: "grid", Value: numbersOf(p, given, false)})
	}
	return append(o, records.Obj("canonical", canonical, "total", total, "count", count)...)
}

// propNames are a class's properties as list writes them: a list, or in
// CSV one field.
func propNames(ps canon.Property, flat bool) any {
	if flat {
		return records.PropsField(ps)
	}
	names := ps.Names()
	if names == nil {
		names = []string{}
	}
	return names
}

// numbersOf is a list of numbers as list prints cells: a queens line, or a
// magic square's rows (flat, for CSV, one list); nil stays nil (null).
func numbersOf(p canon.Puzzle, nums []int, flat bool) any {
	if nums == nil {
		return nil
	}
	if p.Kind == canon.Queens || flat {
		return nums
	}
	grid := [][]int{}
	for i := 0; i < len(nums); i += p.N {
		grid = append(grid, nums[i:min(i+p.N, len(nums))])
	}
	return grid
}

func cellsOf(p canon.Puzzle, cells []byte, flat bool) any {
	nums := make([]int, len(cells))
	for i, v := range cells {
		nums[i] = int(v)
		if p.Kind == canon.Queens {
			nums[i]++
		}
	}
	return numbersOf(p, nums, flat)
}

// writeText prints an entry's line: its line number, the numbers (their
// first maxEcho characters), and either what the catalog knows of it or
// why it is wrong.
func writeText(b *bufio.Writer, p canon.Puzzle, res Result) {
	given := givenText(p, res.Entry.Numbers)
	if len(given) > maxEcho {
		given = given[:maxEcho] + "..."
	}
	fmt.Fprintf(b, "line %d: %s: ", res.Entry.Line, given)
	if res.Cells == nil {
		fmt.Fprintf(b, "not a %s solution: %s\n", p, problemsText(res))
		return
	}
	if !res.Valid() {
		fmt.Fprintf(b, "wrong: %s\n", problemsText(res))
		return
	}
	b.WriteString("valid")
	sym := res.Symmetry
	if s := res.Stored; s != nil {
		fmt.Fprintf(b, ", %s solution %d, class %d", p, s.ID, s.ClassID)
		sym = s.Symmetry
	}
	fmt.Fprintf(b, ", orbit %d, %s of the canonical form %s, %s\n", res.Orbit, sym, numbersText(p, res.Canonical), records.PropsText(res.Props))
}

// maxEcho is how much of an entry's numbers a text line echoes.
const maxEcho = 200

// writeSummary prints the total's line, if any, and the count of right
// answers.
func writeSummary(b *bufio.Writer, p canon.Puzzle, tr *TotalResult, valid, count int64, unstored string) {
	if tr != nil {
		fmt.Fprintf(b, "line %d: total %s: ", tr.Line, humanize.Comma(tr.Value))
		switch {
		case !tr.Known:
			fmt.Fprintf(b, "not checked: no count of %s is known (not in the catalog, not published)\n", p)
		case len(tr.Problems) > 0:
			fmt.Fprintf(b, "wrong: %s\n", strings.Join(tr.Problems, "; "))
		default:
			fmt.Fprintf(b, "right: %s has %s (%s)\n", p, canon.Plural(tr.Count, "solution"), tr.Source)
		}
	}
	fmt.Fprintf(b, "%s: %s of %s %s", p, humanize.Comma(valid), humanize.Comma(count), plural(int(min(count, 2)), "answer is right", "answers are right"))
	if unstored != "" {
		fmt.Fprintf(b, "; %s: no solution IDs or classes", unstored)
	}
	b.WriteString("\n")
}

// problemsText is an entry's problems in a sentence, those not told
// counted.
func problemsText(res Result) string {
	text := strings.Join(res.Problems, "; ")
	if res.More > 0 {
		text += fmt.Sprintf("; and %s more", humanize.Comma(int64(res.More)))
	}
	return text
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
