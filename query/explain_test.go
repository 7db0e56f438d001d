package query_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"solcat/canon"
	"solcat/query"
)

// TestExplainGolden plans questions that take every way of the planner's
// table, in each storage, and compares what --explain prints of them
// (the text and the JSON) with testdata/explain.txt: the words and ranges
// of a plan change only with that file. Scans plan for 4 cores.
func TestExplainGolden(t *testing.T) {
	defer query.SetCores(4)()
	ctx := context.Background()
	cells := func(rcv ...int) []query.Cell {
		var out []query.Cell
		for i := 0; i+2 < len(rcv); i += 3 {
			out = append(out, query.Cell{Row: rcv[i], Col: rcv[i+1], Value: rcv[i+2]})
		}
		return out
	}
	all := query.Window{Limit: -1}
	var explained []string
	type question = query.Question
	for _, tc := range []struct {
		puzzle string
		q      question
	}{
		{"magic:4", question{Ask: query.AskCount}},
		{"magic:4", question{Ask: query.AskCount, Filter: query.Filter{Cells: cells(1, 1, 1)}}},
		{"magic:4", question{Ask: query.AskCount, Filter: query.Filter{Cells: cells(1, 1, 1, 1, 2, 1)}}},
		{"magic:4", question{Ask: query.AskCount, Filter: query.Filter{Cells: cells(4, 4, 16)}}},
		{"magic:4", question{Ask: query.AskCountClasses, Filter: query.Filter{Cells: cells(1, 1, 1)}}},
		{"magic:4", question{Ask: query.AskCount, Filter: query.Filter{Cells: cells(1, 1, 1), UpToSymmetry: true}}},
		{"magic:4", question{Ask: query.AskCount, Filter: query.Filter{Class: 10}}},
		{"magic:4", question{Ask: query.AskCount, Filter: query.Filter{Props: canon.Pandiagonal}}},
		{"magic:4", question{Ask: query.AskList, Window: query.Window{Offset: 5, Limit: 3}}},
		{"magic:4", question{Ask: query.AskList, Filter: query.Filter{Cells: cells(1, 2, 3)}, Window: all}},
		{"magic:4", question{Ask: query.AskList, Filter: query.Filter{Cells: cells(1, 1, 1, 1, 2, 1)}, Window: all}},
		{"magic:4", question{Ask: query.AskClasses, Window: query.Window{Offset: 870, Limit: 20}}},
		{"magic:4", question{Ask: query.AskClasses, Filter: query.Filter{Cells: cells(1, 1, 1)}, Window: all}},
		{"magic:4", question{Ask: query.AskClasses, Filter: query.Filter{Cells: cells(4, 4, 1)}, Window: all}},
		{"magic:4", question{Ask: query.AskClasses, Filter: query.Filter{Cells: cells(4, 4, 1)}, Window: query.Window{Offset: 3, Limit: 2}}},
		{"magic:4", question{Ask: query.AskStats, By: query.StatsBy{Kind: query.ByCell, Row: 1, Col: 1}}},
		{"magic:4", question{Ask: query.AskStats, Filter: query.Filter{Cells: cells(1, 1, 1, 1, 2, 2)}, By: query.StatsBy{Kind: query.ByGroup}}},
		{"magic:4", question{Ask: query.AskStats, Filter: query.Filter{Cells: cells(1, 1, 1)}, By: query.StatsBy{Kind: query.ByHeatmap}}},
		{"queens:8", question{Ask: query.AskCount, Filter: query.Filter{Orbit: 4}}},
		{"queens:8", question{Ask: query.AskCount, Filter: query.Filter{Props: canon.Asymmetric}}},
		{"queens:8", question{Ask: query.AskCount, Filter: query.Filter{Props: canon.Asymmetric, Cells: cells(1, 1, 1)}}},
		{"queens:8", question{Ask: query.AskList, Window: query.Window{Offset: 92, Limit: 5}}},
		{"queens:8", question{Ask: query.AskList, Filter: query.Filter{Class: 10}, Window: all}},
		{"queens:8", question{Ask: query.AskStats, By: query.StatsBy{Kind: query.ByOrbit}}},
		{"queens:8", question{Ask: query.AskStats, By: query.StatsBy{Kind: query.ByRow, Row: 1}}},
		{"queens:10", question{Ask: query.AskStats, Filter: query.Filter{Cells: cells(1, 2, 1, 2, 4, 1)}, By: query.StatsBy{Kind: query.ByRow, Row: 3}}},
		{"queens:10", question{Ask: query.AskStats, Filter: query.Filter{Cells: cells(1, 2, 1)}, By: query.StatsBy{Kind: query.ByRow, Row: 3}}},
		{"queens:11", question{Ask: query.AskCount}},
		{"queens:11", question{Ask: query.AskCountClasses, Filter: query.Filter{Orbit: 4}}},
		{"queens:11", question{Ask: query.AskCount, Filter: query.Filter{Cells: cells(1, 1, 1)}}},
		{"queens:11", question{Ask: query.AskCount, Filter: query.Filter{Props: canon.Asymmetric}}},
		{"queens:11", question{Ask: query.AskList, Window: query.Window{Limit: 1}}},
		{"queens:12", question{Ask: query.AskCount, Filter: query.Filter{Cells: cells(2, 4, 1)}}},
		{"queens:12", question{Ask: query.AskCount, Filter: query.Filter{Cells: cells(2, 4, 1, 5, 1, 1)}}},
		{"queens:12", question{Ask: query.AskCount, Filter: query.Filter{Cells: cells(2, 4, 1), Orbit: 4}}},
		{"queens:12", question{Ask: query.AskCount, Filter: query.Filter{Props: canon.Rot180Only}}},
		{"queens:12", question{Ask: query.AskCountClasses, Filter: query.Filter{Class: 5}}},
		{"queens:12", question{Ask: query.AskList, Window: query.Window{Offset: 14199, Limit: 5}}},
		{"queens:12", question{Ask: query.AskList, Filter: query.Filter{Cells: cells(2, 4, 1)}, Window: query.Window{Offset: 10, Limit: 5}}},
		{"queens:12", question{Ask: query.AskList, Filter: query.Filter{Orbit: 1}, Window: all}},
		{"queens:12", question{Ask: query.AskClasses, Window: query.Window{Offset: 1786, Limit: 5}}},
		{"queens:12", question{Ask: query.AskClasses, Filter: query.Filter{Cells: cells(1, 1, 1)}, Window: all}},
		{"queens:12", question{Ask: query.AskStats, By: query.StatsBy{Kind: query.ByCell, Row: 3, Col: 3}}},
		{"queens:12", question{Ask: query.AskStats, By: query.StatsBy{Kind: query.ByRow, Row: 2}}},
		{"queens:12", question{Ask: query.AskStats, By: query.StatsBy{Kind: query.ByProp, Prop: canon.Rot180Only}}},
		{"queens:12", question{Ask: query.AskStats, By: query.StatsBy{Kind: query.ByHeatmap}}},
		{"queens:12", question{Ask: query.AskStats, Filter: query.Filter{Cells: cells(1, 1, 1)}, By: query.StatsBy{Kind: query.ByHeatmap}}},
		{"queens:8", question{Ask: query.AskCount, Filter: query.Filter{Class: 13}}},
		{"queens:8", question{Ask: query.AskCount, Filter: query.Filter{Cells: cells(9, 1, 1)}}},
		{"magic:3", question{Ask: query.AskCount, Filter: query.Filter{Props: canon.Dudeney(1)}}},
	} {
		tg := open(t, tc.puzzle)
		var b strings.Builder
		fmt.Fprintf(&b, "$ %s %s", tc.puzzle, tc.q.Ask)
		if f := tc.q.Filter.String(tg.Puzzle); f != "" {
			fmt.Fprintf(&b, "; %s", f)
		}
		if pg := tc.q.Window; pg != (query.Window{}) {
			fmt.Fprintf(&b, "; offset %d, limit %d", pg.Offset, pg.Limit)
		}
		switch by := tc.q.By; by.Kind {
		case query.ByCell:
			fmt.Fprintf(&b, "; by cell %d,%d", by.Row, by.Col)
		case query.ByRow:
			fmt.Fprintf(&b, "; by row %d", by.Row)
		case query.ByProp:
			fmt.Fprintf(&b, "; by %s", by.Prop)
		case 0:
		default:
			fmt.Fprintf(&b, "; by %s", by.Kind)
		}
		b.WriteString("\n")
		plan, err := tg.Plan(ctx, tc.q)
		if err != nil {
			fmt.Fprintf(&b, "error: %v\n", err)
		} else {
			r := tg.ExplainReading(ctx, plan)
			data, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s%s\n", r.Text(), data)
		}
		explained = append(explained, b.String())
	}
	query.Golden(t, "explain.txt", strings.Join(explained, "\n"))
}
