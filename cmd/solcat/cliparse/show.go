package cliparse

import (
	"cmp"
	"path/filepath"
	"strings"

	"solcat/cmd/solcat/advice"
	"solcat/query/records"
)

// ShowFlags are show's class ID and flags: what it draws, and where.
type ShowFlags struct {
	Class     *int64         `arg:"" optional:"" name:"class-id" help:"The class ID (1 is the class with the smallest canonical form)."`
	Solution  *int64         `name:"solution" placeholder:"ID" help:"Show the solution with this ID, and its class."`
	ASCII     bool           `name:"ascii" help:"Draw queens with Q and . instead of ♛ and ·."`
	Format    records.Format `name:"format" placeholder:"FORMAT" predictor:"showformat" default:"" enum:",${show_formats}" help:"Output format: text (the default), json, jsonl, csv or svg (the drawing, for papers and slides), in any case."`
	NoHeaders bool           `name:"no-headers" help:"Leave out the CSV header row."`
	Output    string         `short:"o" placeholder:"FILE" help:"Write to FILE (- for standard output) instead; the file appears only when complete, its format follows its name (.svg, .json, .jsonl, .csv; text otherwise) unless --format says."`
}

// Asked gives the class ID or the solution ID asked for (the other 0).
func (s ShowFlags) Asked() (classID, solutionID int64, err error) {
	switch {
	case s.Class == nil && s.Solution == nil:
		return 0, 0, advice.Usagef("show needs a class ID, or --solution ID")
	case s.Class != nil && s.Solution != nil:
		return 0, 0, advice.Usagef("show takes a class ID or --solution ID, not both")
	case s.Class != nil && *s.Class < 1:
		return 0, 0, advice.Usagef("class ID %d: class IDs start at 1", *s.Class)
	case s.Solution != nil && *s.Solution < 1:
		return 0, 0, advice.Usagef("--solution %d: solution IDs start at 1", *s.Solution)
	case s.Class != nil:
		return *s.Class, 0, nil
	}
	return 0, *s.Solution, nil
}

// ToStdout reports whether the drawing goes to standard output.
func (s ShowFlags) ToStdout() bool { return s.Output == "" || s.Output == "-" }

// Chosen is --format, or else the format the --output file's name asks
// for, or text; a --format that contradicts the name is refused.
func (s ShowFlags) Chosen() (records.Format, error) {
	if s.ToStdout() {
		return cmp.Or(s.Format, records.Text), nil
	}
	named := records.FormatOfFile(s.Output)
	if strings.EqualFold(filepath.Ext(s.Output), ".svg") {
		named = records.SVG
	}
	if named == records.Parquet {
		return "", advice.Usagef("show does not write Parquet; name the file .svg, .json, .jsonl, .csv or .txt")
	}
	return FileFormat(s.Format, records.Text, named, s.Output)
}
