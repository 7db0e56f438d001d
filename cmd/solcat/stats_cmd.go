package main

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"solcat/canon"
	"solcat/cmd/solcat/cliparse"
	"solcat/query"
	"solcat/query/records"
)

type statsCmd struct {
	Puzzle string `arg:"" predictor:"puzzle" help:"The puzzle, for example magic:4."`
	By     string `required:"" placeholder:"WHAT" predictor:"by" help:"cell:R,C (the cell's value; queens: 1 queen, 0 empty), row:R (queens: the queen's column), orbit, prop:NAME (1 if the property holds, else 0) or group (magic:4: Dudeney group 1-12)."`
	ASCII  bool   `name:"ascii" help:"Draw the bars with # instead of █."`
	cliparse.FilterFlags
	cliparse.ExplainFlag
	cliparse.FormatFlags
}

func (s *statsCmd) Help() string { return helpText("stats") }

func (s *statsCmd) Run(e *env) error {
	format, err := s.Chosen()
	if err != nil {
		return err
	}
	p, err := canon.ParsePuzzle(s.Puzzle)
	if err != nil {
		return err
	}
	by, err := query.ParseStatsBy(p, s.By)
	if err != nil {
		return err
	}
	t, plan, done, err := e.planned(s.Puzzle, s.FilterFlags, query.Question{Ask: query.AskStats, By: by})
	if err != nil {
		return err
	}
	defer done()
	if s.Explain {
		return e.explain(t, plan, format)
	}
	rows, err := t.Stats(e.ctx, plan)
	if err != nil {
		return err
	}
	var total int64
	for _, r := range rows {
		total += r.Solutions
	}
	row := func(r query.StatsRow, withPuzzle bool) records.Object {
		o := records.Obj("value", r.Value, "label", r.Label, "solutions", r.Solutions, "classes", r.Classes, "share", r.Share)
		if withPuzzle {
			o = append(records.Obj("puzzle", t.Puzzle.String(), "by", s.By), o...)
		}
		return o
	}
	switch format {
	case records.JSON:
		objs := make([]records.Object, len(rows))
		for i, r := range rows {
			objs[i] = row(r, false)
		}
		return printOne(e, format, true, records.Obj("puzzle", t.Puzzle.String(), "by", s.By, "filter", plan.Question.Filter.String(t.Puzzle), "matching", total, "rows", objs))
	case records.JSONL, records.CSV:
		p := records.NewPrinter(e.stdout, format, !s.NoHeaders)
		for _, r := range rows {
			p.Write(row(r, true))
		}
		return p.Close()
	}
	var top float64
	for _, r := range rows {
		top = max(top, r.Share)
	}
	label := map[query.StatsKind]string{query.ByCell: fmt.Sprintf("cell %d,%d", by.Row, by.Col), query.ByRow: fmt.Sprintf("the queen's column in row %d", by.Row),
		query.ByOrbit: "orbit size", query.ByGroup: "Dudeney group", query.ByProp: by.Prop.String()}[by.Kind]
	if !s.NoHeaders {
		fmt.Fprintf(e.stdout, "%s by %s (%d matching solutions)\n", t.Puzzle, label, total)
	}
	glyph := "█"
	if s.ASCII {
		glyph = "#"
	}
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	if !s.NoHeaders {
		fmt.Fprintln(w, "value\tsolutions\tclasses\tshare\t\t")
	}
	for _, r := range rows {
		bar := strings.Repeat(glyph, int(r.Share/top*40+0.5))
		value := strconv.Itoa(r.Value)
		if r.Label != "" {
			value = r.Label
		}
		fmt.Fprintf(w, "%s\t%d\t%d\t%.1f%%\t\t%s\n", value, r.Solutions, r.Classes, 100*r.Share, bar)
	}
	return w.Flush()
}
