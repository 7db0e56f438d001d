package check

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"solcat/canon"
)

// maxProblems is how many problems of one entry are told one by one; the
// rest are counted. queens:8's "1 2 3 4 5 6 7 8" has 28 attacking pairs.
const maxProblems = 8

// problems says what is wrong with numbers as a solution of p: the first
// maxProblems reasons, in the order of the board (rows, then columns, then
// diagonals), and how many more there are; or none, and cells, the
// solution as stored.
func problems(p canon.Puzzle, numbers []int) (out []string, more int, cells []byte) {
	if len(numbers) != p.Len() {
		what := "one column per row"
		if p.Kind == canon.Magic {
			what = fmt.Sprintf("%d rows of %d", p.N, p.N)
		}
		return []string{fmt.Sprintf("%d numbers; %s needs %d (%s)", len(numbers), p, p.Len(), what)}, 0, nil
	}
	if p.Kind == canon.Queens {
		out = queensProblems(p, numbers)
	} else {
		out = magicProblems(p, numbers)
	}
	if len(out) > maxProblems {
		out, more = out[:maxProblems:maxProblems], len(out)-maxProblems
	}
	if len(out) > 0 {
		return out, more, nil
	}
	cells = make([]byte, len(numbers))
	for i, v := range numbers {
		if p.Kind == canon.Queens {
			v--
		}
		cells[i] = byte(v)
	}
	if err := p.Check(cells); err != nil { // the rules once more, as the catalog's builds apply them
		return []string{err.Error()}, 0, nil
	}
	return nil, 0, cells
}

// queensProblems: columns off the board, then each attacking pair, named
// by the squares ROW,COL of its queens as --cell names them.
func queensProblems(p canon.Puzzle, cols []int) []string {
	var out []string
	for r, c := range cols {
		if c < 1 || c > p.N {
			out = append(out, fmt.Sprintf("row %d: column %d is off the board (columns 1 to %d)", r+1, c, p.N))
		}
	}
	on := func(c int) bool { return c >= 1 && c <= p.N }
	for q := range cols {
		for r := q + 1; r < len(cols); r++ {
			a, b := cols[q], cols[r]
			if !on(a) || !on(b) {
				continue
			}
			how := ""
			switch b - a {
			case 0:
				how = fmt.Sprintf("share column %d", a)
			case r - q:
				how = "share a diagonal"
			case q - r:
				how = "share an anti-diagonal"
			default:
				continue
			}
			out = append(out, fmt.Sprintf("the queens at %d,%d and %d,%d %s", q+1, a, r+1, b, how))
		}
	}
	return out
}

// magicProblems: values out of range, values repeated (and so missing),
// then each line whose sum is not the magic constant.
func magicProblems(p canon.Puzzle, vals []int) []string {
	n, top := p.N, p.N*p.N
	var out []string
	at := map[int][]string{}
	for i, v := range vals {
		cell := fmt.Sprintf("%d,%d", i/n+1, i%n+1)
		if v < 1 || v > top {
			out = append(out, fmt.Sprintf("cell %s holds %d; %s holds 1 to %d", cell, v, p, top))
			continue
		}
		at[v] = append(at[v], cell)
	}
	var repeated []int
	for v, cells := range at {
		if len(cells) > 1 {
			repeated = append(repeated, v)
		}
	}
	slices.Sort(repeated)
	for _, v := range repeated {
		out = append(out, fmt.Sprintf("%d is in cells %s; each of 1 to %d appears once", v, strings.Join(at[v], " and "), top))
	}
	var missing []string
	for v := 1; v <= top && len(at) < top; v++ {
		if at[v] == nil {
			missing = append(missing, strconv.Itoa(v))
		}
	}
	if len(missing) > 0 && len(missing) <= 2*n {
		out = append(out, "missing: "+strings.Join(missing, ", "))
	} else if len(missing) > 0 {
		out = append(out, fmt.Sprintf("missing: %d of the values 1 to %d", len(missing), top))
	}
	magic := canon.MagicConstant(n)
	sum := func(what string, cell func(i int) int) {
		s := 0
		for i := range n {
			s += vals[cell(i)]
		}
		if s != magic {
			out = append(out, fmt.Sprintf("%s sums to %d, not the magic constant %d", what, s, magic))
		}
	}
	for r := range n {
		sum(fmt.Sprintf("row %d", r+1), func(i int) int { return r*n + i })
	}
	for c := range n {
		sum(fmt.Sprintf("column %d", c+1), func(i int) int { return i*n + c })
	}
	sum("the diagonal", func(i int) int { return i*n + i })
	sum("the anti-diagonal", func(i int) int { return i*n + n - 1 - i })
	return out
}
