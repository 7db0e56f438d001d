// Package query answers questions over a stored puzzle: it turns user
// filters into SQL over the puzzle's tables, counts, lists and exports.
package query

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"solcat/canon"
)

// ErrFilter is wrapped by every error in a user's filter.
var ErrFilter = errors.New("bad filter")

// Cell is one --cell R,C=V condition, 1-based. For magic squares V is the
// value in the cell; for queens V is 1 for a queen and 0 for an empty square.
type Cell struct{ Row, Col, Value int }

// ParseCell reads "R,C=V".
func ParseCell(text string) (Cell, error) {
	where, value, ok := strings.Cut(text, "=")
	row, col, ok2 := strings.Cut(where, ",")
	if !ok || !ok2 {
		return Cell{}, fmt.Errorf("%w: --cell %q: write ROW,COL=VALUE, for example --cell 1,1=16", ErrFilter, text)
	}
	var c Cell
	for _, part := range []struct {
		text string
		dst  *int
		name string
	}{{row, &c.Row, "row"}, {col, &c.Col, "column"}, {value, &c.Value, "value"}} {
		v, err := strconv.Atoi(strings.TrimSpace(part.text))
		if err != nil {
			return Cell{}, fmt.Errorf("%w: --cell %q: the %s %q is not a whole number; write ROW,COL=VALUE", ErrFilter, text, part.name, part.text)
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
}

// IsZero reports whether f selects every solution.
func (f Filter) IsZero() bool { return len(f.Cells) == 0 && f.Class == 0 && f.Orbit == 0 }

// Validate checks f against the puzzle's board and values.
func (f Filter) Validate(p canon.Puzzle) error {
	for _, c := range f.Cells {
		if c.Row < 1 || c.Row > p.N || c.Col < 1 || c.Col > p.N {
			return fmt.Errorf("%w: --cell %d,%d=%d is off the board; %s has rows and columns 1 to %d", ErrFilter, c.Row, c.Col, c.Value, p, p.N)
		}
		switch {
		case p.Kind == canon.Magic && (c.Value < 1 || c.Value > p.N*p.N):
			return fmt.Errorf("%w: --cell %d,%d=%d: %s holds the values 1 to %d", ErrFilter, c.Row, c.Col, c.Value, p, p.N*p.N)
		case p.Kind == canon.Queens && c.Value != 0 && c.Value != 1:
			return fmt.Errorf("%w: --cell %d,%d=%d: on %s use 1 for a queen and 0 for an empty square", ErrFilter, c.Row, c.Col, c.Value, p)
		}
	}
	if f.Class < 0 {
		return fmt.Errorf("%w: --class %d: class IDs start at 1", ErrFilter, f.Class)
	}
	switch f.Orbit {
	case 0, 1, 2, 4, 8:
	default:
		return fmt.Errorf("%w: --orbit %d: orbit sizes are 1, 2, 4 or 8", ErrFilter, f.Orbit)
	}
	return nil
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
