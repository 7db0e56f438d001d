package records

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"solcat/canon"
	"solcat/query"
)

// RowWriter streams items of one kind to an output.
type RowWriter[T any] interface {
	Write(T) error
	Close() error
}

// itemWriter prints items through a Printer.
type itemWriter[T any] struct {
	p      *Printer
	object func(T, bool) Object
	flat   bool
}

func (w *itemWriter[T]) Write(v T) error { return w.p.Write(w.object(v, w.flat)) }
func (w *itemWriter[T]) Close() error    { return w.p.Close() }

// NewSolutionWriter streams solutions: in text one line each (see cellsText).
func NewSolutionWriter(out io.Writer, format Format, p canon.Puzzle, headers bool) RowWriter[query.Solution] {
	pr := NewPrinter(out, format, headers).lines(func(o Object) string { return cellsFrom(o, 5) }).ColumnNames(Columns(p, false, CSV, ""))
	return &itemWriter[query.Solution]{p: pr, flat: format == CSV || format == Text, object: func(s query.Solution, flat bool) Object {
		return SolutionObject(p, s, flat)
	}}
}

// cellsFrom is the text of the cell fields of an object, which start at
// field first.
func cellsFrom(o Object, first int) string {
	var vals []string
	for _, f := range o[first:] {
		vals = append(vals, textOf(f.Value))
	}
	return strings.Join(vals, " ")
}

// NewClassWriter streams classes: in text one line each, with the class ID
// padded to the width of maxID.
func NewClassWriter(out io.Writer, format Format, p canon.Puzzle, maxID int64, headers bool) RowWriter[query.Class] {
	width := len(strconv.FormatInt(max(maxID, 10), 10))
	pr := NewPrinter(out, format, headers).lines(func(o Object) string {
		return fmt.Sprintf("%*d  %d  %d  %s  %s", width, o[0].Value, o[1].Value, o[2].Value, cellsFrom(o, 4), propsText(o[3].Value))
	}).ColumnNames(Columns(p, true, CSV, ""))
	return &itemWriter[query.Class]{p: pr, flat: format == CSV || format == Text, object: func(c query.Class, flat bool) Object {
		return ClassObject(p, c, flat)
	}}
}

// propsText is a flat record's props field as text writes it.
func propsText(v any) string {
	if names, _ := v.(string); names != "" {
		return names
	}
	return "-"
}
