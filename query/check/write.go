package check

import (
	"fmt"
	"io"
	"strings"

	"github.com/dustin/go-humanize"

	"solcat/canon"
	"solcat/query/records"
)

// Write prints a report: in text a line for each entry and the total, then
// a summary; in json, jsonl and csv one record each, with the same fields
// (those that do not apply are null), so that check reads its own output
// back.
func Write(w io.Writer, format records.Format, headers bool, rep Report) error {
	if format == records.Text {
		return writeText(w, rep)
	}
	flat := format == records.CSV
	out := records.NewPrinter(w, format, headers)
	for _, res := range rep.Results {
		if err := out.Write(resultObject(rep.Puzzle, res, flat)); err != nil {
			return err
		}
	}
	if tr := rep.Total; tr != nil {
		var valid, count any // null: no count is known to check against
		if tr.Known {
			valid, count = len(tr.Problems) == 0, tr.Count
		}
		if err := out.Write(object(rep.Puzzle, tr.Line, valid, tr.Problems, nil, nil, tr.Value, count, flat)); err != nil {
			return err
		}
	}
	return out.Close()
}

// object is one record of check: line, puzzle, valid, problems, the
// solution's id, class, orbit, symmetry and props (from the catalog where
// it is stored), its cells as given (queens or grid, as list prints them)
// and its class's canonical form, and for the total row the total given
// and the count.
func object(p canon.Puzzle, line int, valid any, problems []string, res *Result, given []int, total, count any, flat bool) records.Object {
	var why any = problems
	switch {
	case flat: // a CSV joins a list's items with spaces: the problems' own hold them apart no more
		why = strings.Join(problems, "; ")
	case problems == nil:
		why = []string{}
	}
	var id, class, orbit, symmetry, props, canonical any
	if res != nil && res.Cells != nil {
		orbit, symmetry, props, canonical = res.Orbit, res.Symmetry.String(), propNames(res.Props), cellsOf(p, res.Canonical, flat)
		if s := res.Stored; s != nil {
			id, class, symmetry = s.ID, s.ClassID, s.Symmetry.String()
		}
	}
	key := "queens"
	if p.Kind == canon.Magic {
		key = "grid"
	}
	var cells any
	if given != nil {
		cells = numbersOf(p, given, flat)
	}
	return records.Obj("line", line, "puzzle", p.String(), "valid", valid, "problems", why,
		"id", id, "class", class, "orbit", orbit, "symmetry", symmetry, "props", props,
		key, cells, "canonical", canonical, "total", total, "count", count)
}

func resultObject(p canon.Puzzle, res Result, flat bool) records.Object {
	given := res.Entry.Numbers
	if given == nil {
		given = []int{} // an entry, if an empty one: not the total's null
	}
	return object(p, res.Entry.Line, res.Valid(), res.Problems, &res, given, nil, nil, flat)
}

func propNames(ps canon.Property) []string {
	names := ps.Names()
	if names == nil {
		names = []string{}
	}
	return names
}

// numbersOf is a list of numbers as list prints cells: a queens line, or a
// magic square's rows (flat, for CSV, one list).
func numbersOf(p canon.Puzzle, nums []int, flat bool) any {
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

// writeText prints a line for each entry: its line number, the numbers,
// and either what the catalog knows of it or why it is wrong.
func writeText(w io.Writer, rep Report) error {
	var b strings.Builder
	p := rep.Puzzle
	for _, res := range rep.Results {
		fmt.Fprintf(&b, "line %d: %s: ", res.Entry.Line, givenText(p, res.Entry.Numbers))
		if res.Cells == nil {
			fmt.Fprintf(&b, "not a %s solution: %s\n", p, strings.Join(res.Problems, "; "))
			continue
		}
		if !res.Valid() {
			fmt.Fprintf(&b, "wrong: %s\n", strings.Join(res.Problems, "; "))
			continue
		}
		b.WriteString("valid")
		sym := res.Symmetry
		if s := res.Stored; s != nil {
			fmt.Fprintf(&b, ", %s solution %d, class %d", p, s.ID, s.ClassID)
			sym = s.Symmetry
		}
		fmt.Fprintf(&b, ", orbit %d, %s of the canonical form %s, %s\n", res.Orbit, sym, numbersText(p, res.Canonical), res.Props)
	}
	if tr := rep.Total; tr != nil {
		fmt.Fprintf(&b, "line %d: total %s: ", tr.Line, humanize.Comma(tr.Value))
		switch {
		case !tr.Known:
			fmt.Fprintf(&b, "not checked: no count of %s is known (not in the catalog, not published)\n", p)
		case len(tr.Problems) > 0:
			fmt.Fprintf(&b, "wrong: %s\n", strings.Join(tr.Problems, "; "))
		default:
			fmt.Fprintf(&b, "right: %s has %s (%s)\n", p, canon.Plural(tr.Count, "solution"), tr.Source)
		}
	}
	valid := 0
	for _, res := range rep.Results {
		if res.Valid() {
			valid++
		}
	}
	fmt.Fprintf(&b, "%s: %s of %s %s", p, humanize.Comma(int64(valid)), humanize.Comma(int64(len(rep.Results))), plural(len(rep.Results), "answer is right", "answers are right"))
	if rep.Unstored != "" {
		fmt.Fprintf(&b, "; %s: no solution IDs or classes", rep.Unstored)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
