package query

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"solcat/canon"
)

// ErrFilter is what every mistake in a user's filter, statistic or
// partition is (errors.Is).
var ErrFilter = errors.New("bad filter")

// FilterError is a mistake in one part of a filter (or of a statistic or a
// partition): the part, as given, and what is wrong with it.
type FilterError struct {
	Part    string // cell, pattern, class, orbit, by, partition
	Given   string
	Problem string
}

func (e *FilterError) Error() string {
	if e.Given == "" {
		return e.Part + ": " + e.Problem
	}
	return e.Part + " " + e.Given + ": " + e.Problem
}

// Is makes every FilterError an ErrFilter.
func (e *FilterError) Is(target error) bool { return target == ErrFilter }

func badFilter(part, given, format string, args ...any) error {
	return &FilterError{Part: part, Given: given, Problem: fmt.Sprintf(format, args...)}
}

// Cell is one --cell R,C=V condition, 1-based. For magic squares V is the
// value in the cell; for queens V is 1 for a queen and 0 for an empty square.
type Cell struct{ Row, Col, Value int }

// parseCell reads "R,C=V".
func parseCell(text string) (Cell, error) {
	where, value, ok := strings.Cut(text, "=")
	row, col, ok2 := strings.Cut(where, ",")
	if !ok || !ok2 {
		return Cell{}, badFilter("cell", strconv.Quote(text), "write ROW,COL=VALUE, for example 1,1=16")
	}
	var c Cell
	for _, part := range []struct {
		text string
		dst  *int
		name string
	}{{row, &c.Row, "row"}, {col, &c.Col, "column"}, {value, &c.Value, "value"}} {
		v, err := strconv.Atoi(strings.TrimSpace(part.text))
		if err != nil {
			return Cell{}, badFilter("cell", strconv.Quote(text), "the %s %q is not a whole number; write ROW,COL=VALUE", part.name, part.text)
		}
		*part.dst = v
	}
	return c, nil
}

// Filter selects solutions. The zero Filter selects all of them.
type Filter struct {
	Cells []Cell
	Class int64 // 0: any class
	Orbit int   // 0: any orbit size
	// UpToSymmetry matches the cell conditions against all 8 images of a
	// solution: a solution matches if one of its images meets them all.
	// Since a class's members share their images, it selects whole classes.
	UpToSymmetry bool
	// Props selects classes that have every property in the set.
	Props canon.Property
}

// IsZero reports whether f selects every solution.
func (f Filter) IsZero() bool {
	return len(f.Cells) == 0 && f.Class == 0 && f.Orbit == 0 && f.Props == 0
}

// Validate checks f against the puzzle's board and values. Plan checks
// the filter of every question so.
func (f Filter) Validate(p canon.Puzzle) error {
	for _, c := range f.Cells {
		if c.Row < 1 || c.Row > p.N || c.Col < 1 || c.Col > p.N {
			return badFilter("cell", fmt.Sprintf("%d,%d=%d", c.Row, c.Col, c.Value), "off the board; %s has rows and columns 1 to %d", p, p.N)
		}
		switch {
		case p.Kind == canon.Magic && (c.Value < 1 || c.Value > p.N*p.N):
			return badFilter("cell", fmt.Sprintf("%d,%d=%d", c.Row, c.Col, c.Value), "%s holds the values 1 to %d", p, p.N*p.N)
		case p.Kind == canon.Queens && c.Value != 0 && c.Value != 1:
			return badFilter("cell", fmt.Sprintf("%d,%d=%d", c.Row, c.Col, c.Value), "on %s use 1 for a queen and 0 for an empty square", p)
		}
	}
	if f.Class < 0 {
		return badFilter("class", strconv.FormatInt(f.Class, 10), "class IDs start at 1")
	}
	switch f.Orbit {
	case 0, 1, 2, 4, 8:
	default:
		return badFilter("orbit", strconv.Itoa(f.Orbit), "orbit sizes are 1, 2, 4 or 8")
	}
	return nil
}

// Impossible says why cell conditions, each on the board (Validate),
// can match no solution together, or is "": one square asked to hold two
// things, two queens that attack, a row with no square left for its
// queen, a value asked in two cells, a whole line that does not sum to the
// magic constant. What holds for the solutions holds for their images
// too, so this is so with UpToSymmetry as well. Such a filter is no
// mistake (its count is 0), but 0 alone looks like a missing build.
func (f Filter) Impossible(p canon.Puzzle) string {
	if f.Validate(p) != nil {
		return ""
	}
	n := p.N
	asked := map[[2]int]int{}
	for _, c := range f.Cells {
		at := [2]int{c.Row, c.Col}
		if v, ok := asked[at]; ok && v != c.Value {
			return fmt.Sprintf("cell %d,%d is asked to hold both %d and %d", c.Row, c.Col, v, c.Value)
		}
		asked[at] = c.Value
	}
	if p.Kind == canon.Queens {
		var queens []Cell
		empty := make([]int, n+1)
		squares := slices.SortedFunc(maps.Keys(asked), func(a, b [2]int) int { return cmp.Or(a[0]-b[0], a[1]-b[1]) })
		for _, at := range squares {
			if asked[at] == 1 {
				queens = append(queens, Cell{Row: at[0], Col: at[1]})
			} else if empty[at[0]]++; empty[at[0]] == n {
				return fmt.Sprintf("no square of row %d is left for its queen", at[0])
			}
		}
		for i, a := range queens {
			for _, b := range queens[i+1:] {
				how := ""
				switch {
				case a.Row == b.Row:
					how = "a row"
				case a.Col == b.Col:
					how = "a column"
				case b.Row-a.Row == b.Col-a.Col:
					how = "a diagonal"
				case b.Row-a.Row == a.Col-b.Col:
					how = "an anti-diagonal"
				default:
					continue
				}
				return fmt.Sprintf("no two queens may share %s, and the queens asked at %d,%d and %d,%d do", how, a.Row, a.Col, b.Row, b.Col)
			}
		}
		return ""
	}
	cellOf := map[int][2]int{}
	for _, c := range f.Cells {
		if at, ok := cellOf[c.Value]; ok && at != [2]int{c.Row, c.Col} {
			return fmt.Sprintf("a magic square holds each value once, and %d is asked at %d,%d and %d,%d", c.Value, at[0], at[1], c.Row, c.Col)
		}
		cellOf[c.Value] = [2]int{c.Row, c.Col}
	}
	magic := n * (n*n + 1) / 2
	line := func(what string, at func(i int) [2]int) string {
		sum := 0
		for i := range n {
			v, ok := asked[at(i)]
			if !ok {
				return ""
			}
			sum += v
		}
		if sum != magic {
			return fmt.Sprintf("%s as asked sums to %d, and every line of %s sums to %d", what, sum, p, magic)
		}
		return ""
	}
	for k := 1; k <= n; k++ {
		if why := cmp.Or(line(fmt.Sprintf("row %d", k), func(i int) [2]int { return [2]int{k, i + 1} }),
			line(fmt.Sprintf("column %d", k), func(i int) [2]int { return [2]int{i + 1, k} })); why != "" {
			return why
		}
	}
	return cmp.Or(line("the diagonal", func(i int) [2]int { return [2]int{i + 1, i + 1} }),
		line("the anti-diagonal", func(i int) [2]int { return [2]int{i + 1, n - i} }))
}

// byteCondition is a cell condition on the stored bytes: the byte at Pos
// (0-based) equals Value, or differs from it when Equal is false.
type byteCondition struct {
	Pos   int
	Value byte
	Equal bool
}

func (f Filter) byteConditions(p canon.Puzzle) []byteCondition {
	var out []byteCondition
	for _, c := range f.Cells {
		if p.Kind == canon.Magic {
			out = append(out, byteCondition{Pos: (c.Row-1)*p.N + c.Col - 1, Value: byte(c.Value), Equal: true})
		} else {
			out = append(out, byteCondition{Pos: c.Row - 1, Value: byte(c.Col - 1), Equal: c.Value == 1})
		}
	}
	return out
}

// parsePattern reads a --pattern. Magic squares: rows separated by '/',
// values or '.' separated by spaces ("1 . . . / . . . . / . . . . / . . . 16").
// Queens: one entry per row, the queen's 1-based column or '.' ("2 4 . . . .").
// It returns the fixed cells as conditions.
func parsePattern(p canon.Puzzle, text string) ([]Cell, error) {
	bad := func(format string, args ...any) error {
		return badFilter("pattern", strconv.Quote(text), format, args...)
	}
	var rows [][]string
	if p.Kind == canon.Queens {
		if strings.Contains(text, "/") {
			return nil, bad("a queens pattern is one line of %d entries (a column or '.'), without '/'", p.N)
		}
		for _, f := range strings.Fields(text) {
			rows = append(rows, []string{f})
		}
		if len(rows) != p.N {
			return nil, bad("%d entries for %d rows; give one column or '.' per row, for example %q", len(rows), p.N, examplePattern(p))
		}
	} else {
		for _, row := range strings.Split(text, "/") {
			rows = append(rows, strings.Fields(row))
		}
		if len(rows) != p.N {
			return nil, bad("%d rows; %s needs %d rows separated by '/', for example %q", len(rows), p, p.N, examplePattern(p))
		}
		for r, row := range rows {
			if len(row) != p.N {
				return nil, bad("row %d has %d entries; each row needs %d", r+1, len(row), p.N)
			}
		}
	}
	var cells []Cell
	seen := map[int]int{} // value (magic) or column (queens) -> row
	for r, row := range rows {
		for c, entry := range row {
			if entry == "." {
				continue
			}
			v, err := strconv.Atoi(entry)
			if err != nil {
				return nil, bad("%q is neither a number nor '.'", entry)
			}
			limit := p.N * p.N
			if p.Kind == canon.Queens {
				limit = p.N
			}
			if v < 1 || v > limit {
				return nil, bad("%d is out of range; use 1 to %d or '.'", v, limit)
			}
			if prev, ok := seen[v]; ok {
				if p.Kind == canon.Queens {
					return nil, bad("the queens of rows %d and %d are both in column %d", prev+1, r+1, v)
				}
				return nil, bad("%d appears twice; a magic square holds each value once", v)
			}
			seen[v] = r
			if p.Kind == canon.Queens {
				cells = append(cells, Cell{Row: r + 1, Col: v, Value: 1})
			} else {
				cells = append(cells, Cell{Row: r + 1, Col: c + 1, Value: v})
			}
		}
	}
	return cells, nil
}

func examplePattern(p canon.Puzzle) string {
	if p.Kind == canon.Queens {
		return "2" + strings.Repeat(" .", p.N-1)
	}
	row := strings.TrimSpace(strings.Repeat(". ", p.N))
	rows := make([]string, p.N)
	for i := range rows {
		rows[i] = row
	}
	rows[0] = "1" + row[1:]
	return strings.Join(rows, " / ")
}

// splitPrefix takes the equality conditions on positions 0, 1, 2, ... as a
// byte prefix and leaves the others.
func splitPrefix(conds []byteCondition) ([]byte, []byteCondition) {
	var prefix []byte
	used := make([]bool, len(conds))
	for {
		found := false
		for i, c := range conds {
			if !used[i] && c.Equal && c.Pos == len(prefix) {
				prefix = append(prefix, c.Value)
				used[i], found = true, true
				break
			}
		}
		if !found {
			break
		}
	}
	var rest []byteCondition
	for i, c := range conds {
		if !used[i] {
			rest = append(rest, c)
		}
	}
	return prefix, rest
}

// String describes the filter in the words of the command line.
func (f Filter) String(p canon.Puzzle) string {
	var parts []string
	for _, c := range f.Cells {
		parts = append(parts, fmt.Sprintf("cell %d,%d=%d", c.Row, c.Col, c.Value))
	}
	if f.UpToSymmetry {
		parts = append(parts, "up to symmetry")
	}
	if f.Props != 0 {
		parts = append(parts, "properties "+f.Props.String())
	}
	if f.Class != 0 {
		parts = append(parts, fmt.Sprintf("class %d", f.Class))
	}
	if f.Orbit != 0 {
		parts = append(parts, fmt.Sprintf("orbit %d", f.Orbit))
	}
	return strings.Join(parts, "; ")
}

// FilterText is a filter as people write it: the CLI's flags, a web form.
type FilterText struct {
	Cells        []string // ROW,COL=VALUE each
	Pattern      string
	UpToSymmetry bool
	Props        []string
	Class        *int64 // nil: any class; IDs start at 1
	Orbit        *int   // nil: any orbit size
}

// ParseFilter reads a filter written for puzzle p: its property names are
// p's kind's, its pattern is of p's board. Whether its cells are on the
// board and hold values of p is checked once, when a question with the
// filter is planned (Validate).
func ParseFilter(p canon.Puzzle, ft FilterText) (Filter, error) {
	out := Filter{UpToSymmetry: ft.UpToSymmetry}
	if ft.Class != nil {
		if *ft.Class < 1 {
			return out, badFilter("class", strconv.FormatInt(*ft.Class, 10), "class IDs start at 1")
		}
		out.Class = *ft.Class
	}
	if ft.Orbit != nil {
		if *ft.Orbit == 0 {
			return out, badFilter("orbit", "0", "orbit sizes are 1, 2, 4 or 8")
		}
		out.Orbit = *ft.Orbit
	}
	for _, name := range ft.Props {
		prop, ok := canon.ParseProperty(p.Kind, name)
		if !ok {
			return out, badFilter("prop", strconv.Quote(name), "not a property of %s puzzles; use one of: %s", p.Kind, strings.Join(canon.PropertyNames(p.Kind), ", "))
		}
		out.Props |= prop
	}
	if ft.Pattern != "" {
		cells, err := parsePattern(p, ft.Pattern)
		if err != nil {
			return out, err
		}
		out.Cells = append(out.Cells, cells...)
	}
	for _, text := range ft.Cells {
		c, err := parseCell(text)
		if err != nil {
			return out, err
		}
		out.Cells = append(out.Cells, c)
	}
	if ft.UpToSymmetry && len(out.Cells) == 0 {
		return out, badFilter("up-to-symmetry", "", "needs cell or pattern conditions to match; add some, or leave it out")
	}
	return out, nil
}
