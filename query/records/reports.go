package records

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/dustin/go-humanize"

	"solcat/canon"
	"solcat/catalog"
	"solcat/query"
	"solcat/query/verify"
)

// WriteOne writes one record: a document in json, a line in jsonl, a row
// (with its header) in csv, a row of a text table.
func WriteOne(w io.Writer, format Format, headers bool, o Object) error {
	p := NewPrinter(w, format, headers)
	if format == JSON || format == JSONL {
		return p.WriteDocument(o)
	}
	if err := p.Write(o); err != nil {
		return err
	}
	return p.Close()
}

// WriteCount writes a count: the number alone in text, else a record of
// the puzzle, what was counted (solutions or classes) and the count.
func WriteCount(w io.Writer, format Format, headers bool, puzzle, of string, n int64) error {
	if format == Text {
		_, err := fmt.Fprintln(w, n)
		return err
	}
	return WriteOne(w, format, headers, Obj("puzzle", puzzle, "of", of, "count", n))
}

// WriteExplain writes a plan as --explain shows it: its text, or its
// report as a JSON document, a JSON line or a CSV row.
func WriteExplain(w io.Writer, format Format, report query.PlanReport) error {
	switch format {
	case JSON, JSONL:
		return WriteOne(w, format, true, ExplainObject(report))
	case CSV:
		out := NewPrinter(w, format, true)
		out.Write(Obj("puzzle", report.Puzzle, "storage", report.Storage, "way", report.Way, "workers", report.Workers, "detail", strings.Join(report.Detail, "; ")))
		return out.Close()
	}
	_, err := io.WriteString(w, report.Text())
	return err
}

// ExplainObject is a plan as --explain and the web's JSON give it, one
// shape for both: the ID ranges read are arrays, empty when the plan reads
// no range, never null.
func ExplainObject(r query.PlanReport) Object {
	orEmpty := func(ids []int64) []int64 {
		if ids == nil {
			return []int64{}
		}
		return ids
	}
	detail := r.Detail
	if detail == nil {
		detail = []string{}
	}
	return Obj("puzzle", r.Puzzle, "storage", r.Storage, "way", r.Way, "solution_ids", orEmpty(r.SolutionIDs), "class_ids", orEmpty(r.ClassIDs),
		"workers", r.Workers, "detail", detail)
}

// WriteVerifyReport writes verify's report: json one document; jsonl a line
// for the catalog's own problems, then one per puzzle, with the same keys
// as the document and its puzzles (the catalog named by its path); csv a
// row per puzzle. Text was printed as verify went.
func WriteVerifyReport(w io.Writer, format Format, headers bool, path string, r verify.Report) error {
	switch format {
	case Text:
		return nil
	case JSON:
		objs := make([]Object, len(r.Puzzles))
		for i, pr := range r.Puzzles {
			objs[i] = PuzzleReportObject(pr, true)
		}
		return WriteOne(w, format, headers, Obj("catalog", path, "integrity", r.Integrity, "lookups", r.Lookups, "problems", r.Problems, "puzzles", objs))
	}
	p := NewPrinter(w, format, headers).Columns(PuzzleReportObject(verify.PuzzleReport{}, false))
	if format == JSONL {
		p.Write(Obj("catalog", path, "integrity", r.Integrity, "lookups", r.Lookups, "problems", r.Problems))
	}
	for _, pr := range r.Puzzles {
		p.Write(PuzzleReportObject(pr, format == JSONL))
	}
	return p.Close()
}

// StatsTable is a distribution as stats prints it.
type StatsTable struct {
	Puzzle  canon.Puzzle
	By      query.StatsBy
	Given   string // --by as the user wrote it
	Filter  string
	Rows    []query.StatsRow
	Headers bool
	ASCII   bool // bars of # instead of █
}

// WriteStats writes a distribution: a JSON document, a line or row per
// value, or a text table with bars.
func WriteStats(w io.Writer, format Format, s StatsTable) error {
	var total int64
	for _, r := range s.Rows {
		total += r.Solutions
	}
	row := func(r query.StatsRow, withPuzzle bool) Object {
		var classes any = r.Classes
		if r.Classes < 0 {
			classes = nil // not counted
		}
		o := Obj("value", r.Value, "label", r.Label, "solutions", r.Solutions, "classes", classes, "share", r.Share)
		if withPuzzle {
			o = append(Obj("puzzle", s.Puzzle.String(), "by", s.Given), o...)
		}
		return o
	}
	switch format {
	case JSON:
		objs := make([]Object, len(s.Rows))
		for i, r := range s.Rows {
			objs[i] = row(r, false)
		}
		return WriteOne(w, format, true, Obj("puzzle", s.Puzzle.String(), "by", s.Given, "filter", s.Filter, "matching", total, "rows", objs))
	case JSONL, CSV:
		p := NewPrinter(w, format, s.Headers).Columns(row(query.StatsRow{}, true))
		for _, r := range s.Rows {
			p.Write(row(r, true))
		}
		return p.Close()
	}
	var top float64
	for _, r := range s.Rows {
		top = max(top, r.Share)
	}
	by := s.By
	label := map[query.StatsKind]string{query.ByCell: fmt.Sprintf("cell %d,%d", by.Row, by.Col), query.ByRow: fmt.Sprintf("the queen's column in row %d", by.Row), query.ByCol: fmt.Sprintf("the queen's row in column %d", by.Col),
		query.ByOrbit: "orbit size", query.ByGroup: "Dudeney group", query.ByProp: by.Prop.String()}[by.Kind]
	if s.Headers {
		fmt.Fprintf(w, "%s by %s (%s)\n", s.Puzzle, label, canon.Plural(total, "matching solution"))
	}
	glyph := "█"
	if s.ASCII {
		glyph = "#"
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	if s.Headers {
		fmt.Fprintln(tw, "value\tsolutions\tclasses\tshare\t\t")
	}
	for _, r := range s.Rows {
		bar := strings.Repeat(glyph, int(r.Share/top*40+0.5))
		value := strconv.Itoa(r.Value)
		if r.Label != "" {
			value = r.Label
		}
		classes := "-" // not counted
		if r.Classes >= 0 {
			classes = humanize.Comma(r.Classes)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.1f%%\t\t%s\n", value, humanize.Comma(r.Solutions), classes, 100*r.Share, bar)
	}
	return tw.Flush()
}

// WriteRecordTable writes the puzzles' records as info's table: storage,
// counts, orbit split, the check against the published counts, build time,
// workers and the start of the content hash.
func WriteRecordTable(w io.Writer, recs []catalog.Record, headers bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	if headers {
		fmt.Fprintln(tw, "puzzle\tstored\tsolutions\tclasses\torbit 1/2/4/8\tOEIS\tbuild\tworkers\tcontent\t")
	}
	for _, r := range recs {
		check := "no"
		if verify.MatchesPublished(r) {
			check = "matches"
		}
		content := "-"
		if len(r.ContentHash) >= 16 {
			content = r.ContentHash[:16] // the full SHA-256 is in --format json
		}
		workers := "-" // merged from shards built elsewhere
		if r.Workers > 0 {
			workers = fmt.Sprint(r.Workers)
		}
		th := humanize.Comma
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s/%s/%s/%s\t%s\t%.2fs\t%s\t%s\t\n", r.Name, r.Storage, th(r.Solutions), th(r.Classes),
			th(r.Orbits[1]), th(r.Orbits[2]), th(r.Orbits[4]), th(r.Orbits[8]), check, r.BuildSeconds, workers, content)
	}
	return tw.Flush()
}
