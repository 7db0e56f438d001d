package main

import (
	"cmp"
	"fmt"
	"path/filepath"
	"strings"

	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/help"
	"solcat/cmd/solcat/outfile"
	"solcat/query/records"
)

type showCmd struct {
	Puzzle    string         `arg:"" predictor:"puzzle" help:"The puzzle, for example queens:8."`
	Class     *int64         `arg:"" optional:"" name:"class-id" help:"The class ID (1 is the class with the smallest canonical form)."`
	Solution  *int64         `name:"solution" placeholder:"ID" help:"Show the solution with this ID, and its class."`
	ASCII     bool           `name:"ascii" help:"Draw queens with Q and . instead of ♛ and ·."`
	Format    records.Format `name:"format" placeholder:"FORMAT" predictor:"showformat" default:"" enum:",${show_formats}" help:"Output format: text (the default), json, jsonl, csv or svg (the drawing, for papers and slides), in any case."`
	NoHeaders bool           `name:"no-headers" help:"Leave out the CSV header row."`
	Output    string         `short:"o" placeholder:"FILE" help:"Write to FILE (- for standard output) instead; the file appears only when complete, its format follows its name (.svg, .json, .jsonl, .csv; text otherwise) unless --format says."`
}

func (s *showCmd) Help() string { return help.Text("show") }

func (s *showCmd) Run(e *env) error {
	format, err := s.format()
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
	t, done, err := e.Target(e.ctx, s.Puzzle)
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
	if s.Output == "" || s.Output == "-" {
		return records.WriteShown(e.stdout, format, !s.NoHeaders, shown, s.ASCII)
	}
	out, err := outfile.Create(s.Output, e.stdout, e.OwnFile)
	if err != nil {
		return advice.OutputError(s.Output, err)
	}
	defer out.Abort()
	if err := records.WriteShown(out, format, !s.NoHeaders, shown, s.ASCII); err != nil {
		return fmt.Errorf("%w; nothing was written", err)
	}
	if err := out.Commit(); err != nil {
		return fmt.Errorf("%w; nothing was written", err)
	}
	fmt.Fprintf(e.stderr, "wrote %s to %s\n", records.ShownName(shown), s.Output)
	return nil
}

// format is --format, or else the format the --output file's name asks
// for, or text; a --format that contradicts the name is refused.
func (s *showCmd) format() (records.Format, error) {
	if s.Output == "" || s.Output == "-" {
		return cmp.Or(s.Format, records.Text), nil
	}
	named := records.FormatOfFile(s.Output)
	if strings.EqualFold(filepath.Ext(s.Output), ".svg") {
		named = records.SVG
	}
	if named == records.Parquet {
		return "", usagef("show does not write Parquet; name the file .svg, .json, .jsonl, .csv or .txt")
	}
	return cliparse.FileFormat(s.Format, records.Text, named, s.Output)
}
