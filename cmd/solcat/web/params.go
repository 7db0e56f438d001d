package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"solcat/canon"
	"solcat/query"
)

// A page's parameters: each page takes its own, a puzzle's pages also the
// squares of its board, named as the CLI's CSV names the cells (rowR for
// queens, rRcC for magic squares; the older qR and cR_C are read too), and
// any other name is refused, as the CLI refuses a flag it does not know.
// Only cell and prop may be given more than once; a repeated one would
// otherwise be half ignored.
var (
	filterParams = []string{"cell", "pattern", "prop", "orbit", "class", "sym"}
	repeatable   = []string{"cell", "prop"}
)

// pageParams are the parameters of a kind of page, besides the board's.
type pageParams struct {
	page  string // the page, as the refusal names it
	names []string
	board bool // the puzzle's squares: rowR (queens) or rRcC (magic)
}

var (
	catalogParams  = pageParams{page: "the catalog page"}
	showParams     = pageParams{page: "a class or solution page"}
	puzzleParams   = pageParams{"a puzzle page", append(slices.Clip(filterParams), "view", "page", "size", "count"), true}
	statsParams    = pageParams{"a statistics page", append(slices.Clip(filterParams), "by", "run"), true}
	heatmapParams  = pageParams{"a heat map page", append(slices.Clip(filterParams), "run"), true}
	downloadParams = pageParams{"a download", append(slices.Clip(filterParams), "view"), true}
)

// params reads the query string of a request for a page of kind pp (of
// puzzle p, if the page has a board): 400 for what is not URL-encoded
// text, a name the page does not take, a square off the board, or a name
// (or a square, by two of its names) given twice that may be given once.
func params(r *http.Request, pp pageParams, p canon.Puzzle) (url.Values, error) {
	q, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "the address's parameters are not URL-encoded (%s); write a %% in a value as %%25", unquoteErr(err))
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for name := range q {
			if !yield(name) {
				return
			}
		}
	})
	square := map[[2]int]string{} // the name each square was given by
	for _, name := range names {
		values := q[name]
		if !utf8.ValidString(name) {
			return nil, errorf(http.StatusBadRequest, "parameter %q: not UTF-8 text", name)
		}
		for _, v := range values {
			if !utf8.ValidString(v) {
				return nil, errorf(http.StatusBadRequest, "%s=%q: not UTF-8 text", name, v)
			}
		}
		isBoard := false
		if pp.board {
			if isBoard, err = boardParam(p, name, values[0]); err != nil {
				return nil, err
			}
		}
		switch {
		case !isBoard && !slices.Contains(pp.names, name):
			return nil, errorf(http.StatusBadRequest, "%s: not a parameter of %s; %s", strconv.Quote(name), pp.page, takes(pp, p))
		case len(values) > 1 && !slices.Contains(repeatable, name):
			return nil, errorf(http.StatusBadRequest, "%s is given %d times (%s); give it once", name, len(values), strings.Join(values, ", "))
		}
		if isBoard {
			row, col, _ := canon.ParseCellName(p.Kind, name)
			if other, ok := square[[2]int{row, col}]; ok {
				return nil, errorf(http.StatusBadRequest, "%s and %s name the same square; give one", other, name)
			}
			square[[2]int{row, col}] = name
		}
	}
	return q, nil
}

// unquoteErr is a query string's error without the package's prefix.
func unquoteErr(err error) string {
	var ee url.EscapeError
	if errors.As(err, &ee) {
		return "invalid escape " + strconv.Quote(string(ee))
	}
	return err.Error()
}

// takes says which parameters a page takes.
func takes(pp pageParams, p canon.Puzzle) string {
	names := pp.names
	if pp.board {
		board := canon.CellName(p, 0) + " to " + canon.CellName(p, p.Len()-1)
		names = append([]string{board}, names...)
	}
	if len(names) == 0 {
		return "it takes none"
	}
	return "it takes " + strings.Join(names, ", ")
}

// boardParam reports whether name is a square of p's board (rowR: the
// column of row R's queen; rRcC: the value in row R, column C), and
// checks it and its value as the CLI checks --cell: an error names the
// parameter. A name of a square's shape that is off the board is refused
// here too, not as an unknown name.
func boardParam(p canon.Puzzle, name, value string) (bool, error) {
	row, col, ok := canon.ParseCellName(p.Kind, name)
	if !ok {
		return false, nil
	}
	what := "column"
	if p.Kind == canon.Queens {
		col = 1 // the value names the column
	} else {
		what = "value"
	}
	cell := query.Cell{Row: row, Col: col, Value: 1}
	if err := (query.Filter{Cells: []query.Cell{cell}}).Validate(p); err != nil {
		return true, paramError(name, value, err)
	}
	if value == "" {
		return true, nil // the form's "nothing fixed here"
	}
	v, err := strconv.Atoi(value)
	if err != nil {
		return true, errorf(http.StatusBadRequest, "%s=%s: the %s is not a whole number; %s", name, strconv.Quote(value), what, squareHint(p))
	}
	if p.Kind == canon.Queens {
		cell.Col = v
	} else {
		cell.Value = v
	}
	if err := (query.Filter{Cells: []query.Cell{cell}}).Validate(p); err != nil {
		return true, paramError(name, value, err)
	}
	return true, nil
}

func squareHint(p canon.Puzzle) string {
	if p.Kind == canon.Queens {
		return fmt.Sprintf("give the column of the row's queen, 1 to %d", p.N)
	}
	return fmt.Sprintf("%s holds the values 1 to %d", p, p.N*p.N)
}

// paramError is a filter's refusal of a square, said of its parameter.
func paramError(name, value string, err error) error {
	var fe *query.FilterError
	if errors.As(err, &fe) {
		return errorf(http.StatusBadRequest, "%s=%s: %s", name, value, fe.Problem)
	}
	return errorf(http.StatusBadRequest, "%s=%s: %v", name, value, err)
}

// choice reads a parameter that is absent or one of a few values.
func choice(q url.Values, name string, allowed ...string) (string, error) {
	v := q.Get(name)
	if v == "" || slices.Contains(allowed, v) {
		return v, nil
	}
	return "", errorf(http.StatusBadRequest, "%s=%s: give %s=%s, or leave it out", name, strconv.Quote(v), name, strings.Join(allowed, " or "))
}
