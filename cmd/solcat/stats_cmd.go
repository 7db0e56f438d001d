package main

import (
	"encoding/csv"
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"

	"solcat/canon"
	"solcat/query"
)

type statsCmd struct {
	Puzzle string `arg:"" help:"The puzzle, for example magic:4."`
	By     string `required:"" placeholder:"WHAT" help:"cell:R,C (the cell's value; queens: 1 queen, 0 empty), row:R (queens: the queen's column), orbit, prop:NAME (1 if the property holds, else 0) or group (magic:4: Dudeney group 1-12)."`
	ASCII  bool   `name:"ascii" help:"Draw the bars with # instead of █."`
	filterFlags
	explainFlag
}

func (s *statsCmd) Help() string {
	return `Prints a distribution over the solutions that match the filters: each value,
how many solutions and classes have it, its share, and a bar.

Examples:
  solcat stats magic:4 --by cell:1,1          # which values the top-left cell takes
  solcat stats queens:8 --by row:1
  solcat stats queens:12 --by orbit --format csv
  solcat stats magic:4 --by cell:2,2 --cell 1,1=1 --format json
  solcat stats magic:4 --by group             # Dudeney's twelve groups
  solcat stats magic:4 --by prop:pandiagonal --cell 1,1=1`
}

func (s *statsCmd) Run(e *env) error {
	format, err := e.format(query.Text, query.Text, query.JSON, query.CSV)
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
	t, plan, done, err := e.planned(s.Puzzle, s.filterFlags, query.Question{Ask: query.AskStats, By: by})
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
	switch format {
	case query.JSON:
		if rows == nil {
			rows = []query.StatsRow{}
		}
		return writeJSON(e.stdout, rows)
	case query.CSV:
		w := csv.NewWriter(e.stdout)
		labelled := by.What == "group" || by.What == "prop"
		header := []string{"value", "solutions", "classes", "share"}
		if labelled {
			header = append(header, "label")
		}
		w.Write(header)
		for _, r := range rows {
			record := []string{strconv.Itoa(r.Value), strconv.FormatInt(r.Solutions, 10), strconv.FormatInt(r.Classes, 10), strconv.FormatFloat(r.Share, 'f', 6, 64)}
			if labelled {
				record = append(record, r.Label)
			}
			w.Write(record)
		}
		w.Flush()
		return w.Error()
	}
	var total int64
	var top float64
	for _, r := range rows {
		total += r.Solutions
		top = max(top, r.Share)
	}
	label := map[string]string{"cell": fmt.Sprintf("cell %d,%d", by.Row, by.Col), "row": fmt.Sprintf("the queen's column in row %d", by.Row),
		"orbit": "orbit size", "group": "Dudeney group", "prop": by.Prop.String()}[by.What]
	fmt.Fprintf(e.stdout, "%s by %s (%d matching solutions)\n", t.Puzzle, label, total)
	glyph := "█"
	if s.ASCII {
		glyph = "#"
	}
	w := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "value\tsolutions\tclasses\tshare\t\t")
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
