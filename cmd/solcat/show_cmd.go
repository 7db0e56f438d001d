package main

import (
	"fmt"

	"solcat/canon"
	"solcat/cmd/solcat/cliparse"
	"solcat/query/draw"
	"solcat/query/records"
)

// svgFormat is show's drawing.
const svgFormat records.Format = "svg"

type showCmd struct {
	Puzzle    string `arg:"" predictor:"puzzle" help:"The puzzle, for example queens:8."`
	Class     *int64 `arg:"" optional:"" name:"class-id" help:"The class ID (1 is the class with the smallest canonical form)."`
	Solution  *int64 `name:"solution" placeholder:"ID" help:"Show the solution with this ID, and its class."`
	ASCII     bool   `name:"ascii" help:"Draw queens with Q and . instead of ♛ and ·."`
	Format    string `name:"format" placeholder:"FORMAT" predictor:"showformat" help:"Output format: text (the default), json, jsonl, csv or svg (the drawing, for papers and slides), in any case."`
	NoHeaders bool   `name:"no-headers" help:"Leave out the CSV header row."`
}

func (s *showCmd) Help() string { return helpText("show") }

func (s *showCmd) Run(e *env) error {
	format, err := cliparse.ChooseFormat(s.Format, records.Text, append(records.Formats, svgFormat)...)
	if err != nil {
		return err
	}
	switch {
	case s.Class == nil && s.Solution == nil:
		return usagef("show needs a class ID, or --solution ID")
	case s.Class != nil && s.Solution != nil:
		return usagef("show takes a class ID or --solution ID, not both")
	case s.Class != nil && *s.Class < 1:
		return usagef("class ID %d: class IDs start at 1", *s.Class)
	case s.Solution != nil && *s.Solution < 1:
		return usagef("--solution %d: solution IDs start at 1", *s.Solution)
	}
	t, done, err := e.target(s.Puzzle)
	if err != nil {
		return err
	}
	defer done()
	var classID, solutionID int64
	if s.Class != nil {
		classID = *s.Class
	}
	if s.Solution != nil {
		solutionID = *s.Solution
	}
	shown, err := t.Show(e.ctx, classID, solutionID)
	if err != nil {
		return err
	}
	switch format {
	case svgFormat:
		// The solution asked for, else the class's canonical form; an order-4
		// square with its complementary pairs (Dudeney's pattern).
		cells, title := shown.Class.Canonical, fmt.Sprintf("%s class %d", t.Puzzle, shown.Class.ID)
		if sol := shown.Solution; sol != nil {
			cells, title = sol.Cells, fmt.Sprintf("%s solution %d", t.Puzzle, sol.ID)
		}
		_, err := fmt.Fprintln(e.stdout, draw.Solution(t.Puzzle, cells, draw.Options{Title: title, Pairs: t.Puzzle.Kind == canon.Magic && t.Puzzle.N == 4, Coords: true}))
		return err
	case records.JSON:
		return records.WriteOne(e.stdout, format, true, records.ShownObject(shown))
	case records.JSONL, records.CSV:
		// The members, as list prints solutions.
		w := records.NewSolutionWriter(e.stdout, format, t.Puzzle, !s.NoHeaders)
		for _, m := range shown.Members {
			w.Write(m)
		}
		return w.Close()
	}
	_, err = fmt.Fprint(e.stdout, records.ShownText(shown, s.ASCII))
	return err
}
