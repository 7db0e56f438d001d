package catalog

import (
	"database/sql/driver"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Layout says how a build is cut into units and by which solver: saved
// work with another layout is not resumed, and shards with other layouts
// are not merged. Layouts are compared as values; each is stored as one
// text (String), read back field by field, and two layouts are equal
// exactly when their texts are: "solcat-2, 4096 rows per unit, indexed
// blocks, stored by first row shard 2/4".
type Layout struct {
	Solver     string // the solver's version: "solcat-2"
	Cut        Cut    // how the work is cut
	Units      int    // the search units: of a count, of queens:N's classes, of magic:5's frames
	UnitRows   int64  // the rows committed at a time: a stored build's solutions, a queens build's classes
	Counter    string // a count's counter, where the puzzle has more than one ("halves counter")
	ByFirstRow bool   // a stored build whose shards are split by first row
	Shard      int    // the shard of a split build that the build makes (1-based), or 0
	Of         int    // the shards of that split, or 0

	// other is the cut of a stored layout that this solcat does not make
	// (an older one's, a damaged row), as its text: it equals only itself.
	other string
}

// Cut is how a build cuts its work into units.
type Cut uint8

const (
	CutNone          Cut = iota // none named (a test's layout), or a cut this solcat does not make
	CutRows                     // a stored build: UnitRows rows a unit, indexed blocks (ByFirstRow)
	CutQueensClasses            // queens stored as classes: Units search units, UnitRows classes a unit
	CutMagic5Frames             // magic:5's classes: Units frame units, 10-bit buckets
	CutCounts                   // a count: Units units, by Counter
)

func (l Layout) String() string {
	text, cut := l.Solver, l.cutText()
	if l.Solver != "" && cut != "" {
		text += ", "
	}
	text += cut
	if l.Of > 0 {
		text += " shard " + strconv.Itoa(l.Shard) + "/" + strconv.Itoa(l.Of)
	}
	return text
}

// cutText is how the layout's text names its cut.
func (l Layout) cutText() string {
	switch l.Cut {
	case CutRows:
		text := fmt.Sprintf("%d rows per unit, indexed blocks", l.UnitRows)
		if l.ByFirstRow {
			text += ", stored by first row"
		}
		return text
	case CutQueensClasses:
		return fmt.Sprintf("queens classes: %d search units, %d classes per unit, packed forms, class index", l.Units, l.UnitRows)
	case CutMagic5Frames:
		return fmt.Sprintf("magic:5 classes: %d frame units, 10-bit buckets, class index", l.Units)
	case CutCounts:
		if l.Counter != "" {
			return fmt.Sprintf("%s, %d units", l.Counter, l.Units)
		}
		return fmt.Sprintf("%d units", l.Units)
	}
	return l.other
}

// The cuts' texts, as cutText writes them.
var (
	rowsCut          = regexp.MustCompile(`^(\d+) rows per unit, indexed blocks(, stored by first row)?$`)
	queensClassesCut = regexp.MustCompile(`^queens classes: (\d+) search units, (\d+) classes per unit, packed forms, class index$`)
	magic5FramesCut  = regexp.MustCompile(`^magic:5 classes: (\d+) frame units, 10-bit buckets, class index$`)
	countsCut        = regexp.MustCompile(`^(?:(.+), )?(\d+) units$`)
)

// parseLayout reads a stored layout. A text that String does not write
// (an older solcat's, a damaged row) is a layout that only that text
// reads as, so that every stored text reads back as itself.
func parseLayout(text string) Layout {
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
	var cut string
	l.Solver, cut, _ = strings.Cut(rest, ", ")
	number := func(s string) int64 {
		n, _ := strconv.ParseInt(s, 10, 64)
		return n
	}
	if m := rowsCut.FindStringSubmatch(cut); m != nil {
		l.Cut, l.UnitRows, l.ByFirstRow = CutRows, number(m[1]), m[2] != ""
	} else if m := queensClassesCut.FindStringSubmatch(cut); m != nil {
		l.Cut, l.Units, l.UnitRows = CutQueensClasses, int(number(m[1])), number(m[2])
	} else if m := magic5FramesCut.FindStringSubmatch(cut); m != nil {
		l.Cut, l.Units = CutMagic5Frames, int(number(m[1]))
	} else if m := countsCut.FindStringSubmatch(cut); m != nil {
		l.Cut, l.Counter, l.Units = CutCounts, m[1], int(number(m[2]))
	} else {
		l.other = cut
	}
	if l.String() != text {
		return Layout{other: text}
	}
	return l
}

// storedLayout is a layout as its column stores it: its text.
type storedLayout Layout

// Scan reads a layout from its column.
func (l *storedLayout) Scan(src any) error {
	switch v := src.(type) {
	case string:
		*l = storedLayout(parseLayout(v))
	case []byte:
		*l = storedLayout(parseLayout(string(v)))
	default:
		return fmt.Errorf("a layout is text, not %T", src)
	}
	return nil
}

// Value stores a layout as its text.
func (l storedLayout) Value() (driver.Value, error) { return Layout(l).String(), nil }
