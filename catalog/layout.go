package catalog

import (
	"database/sql/driver"
	"fmt"
	"strconv"
	"strings"
)

// Layout names how a build is cut into units and by which solver: saved
// work with another layout is not resumed, and shards with other layouts
// are not merged. It is stored as its text (String), which ParseLayout
// reads back: the solver, how it cuts the work, and the shard that a
// build of one shard makes, as in "solcat-2, 4096 rows per unit, solution
// blocks, stored by first row shard 2/4".
type Layout struct {
	Solver string // the solver's version: "solcat-2"
	Cut    string // how it cuts the work, in its words: "4096 rows per unit, column blocks"
	Shard  int    // the shard of a split build that the build makes (1-based), or 0
	Of     int    // the shards of that split, or 0
}

func (l Layout) String() string {
	text := l.Solver
	if l.Solver != "" && l.Cut != "" {
		text += ", "
	}
	text += l.Cut
	if l.Of > 0 {
		text += " shard " + strconv.Itoa(l.Shard) + "/" + strconv.Itoa(l.Of)
	}
	return text
}

// ParseLayout reads a stored layout. A text that String does not write
// (an older solcat's, a damaged row) is a Layout whose Cut is that text,
// so that every stored text reads back as itself.
func ParseLayout(text string) Layout {
	var l Layout
	rest := text
	if body, shard, ok := strings.Cut(text, " shard "); ok {
		i, of, _ := strings.Cut(shard, "/")
		l.Shard, _ = strconv.Atoi(i)
		l.Of, _ = strconv.Atoi(of)
		if l.Shard < 1 || l.Shard > l.Of {
			l.Shard, l.Of = 0, 0
		}
		rest = body
	}
	l.Solver, l.Cut, _ = strings.Cut(rest, ", ")
	if l.String() != text {
		return Layout{Cut: text}
	}
	return l
}

// Scan reads a layout from its column.
func (l *Layout) Scan(src any) error {
	switch v := src.(type) {
	case string:
		*l = ParseLayout(v)
	case []byte:
		*l = ParseLayout(string(v))
	default:
		return fmt.Errorf("a layout is text, not %T", src)
	}
	return nil
}

// Value stores a layout as its text.
func (l Layout) Value() (driver.Value, error) { return l.String(), nil }
