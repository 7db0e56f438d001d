package advice

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/dustin/go-humanize"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/enumerate"
	"solcat/query/records"
)

// Write prints what the catalog at path holds, as info does: in text the
// puzzles' table, then a line for each shard and unfinished build; in the
// other formats a record for each, told apart by storage (a CSV has the
// puzzles alone, and says on stderr what it leaves out).
func (c Contents) Write(stdout, stderr io.Writer, format records.Format, headers bool, path string) error {
	recs := c.Records
	if format != records.Text {
		// Puzzles first, then shards and unfinished builds, told apart by
		// storage.
		out := records.NewPrinter(stdout, format, headers).Columns(records.RecordObject(catalog.Record{}))
		for _, r := range recs {
			out.Write(records.RecordObject(r))
		}
		if format == records.CSV {
			// A CSV has one set of columns; say what it leaves out
			// rather than print nothing without a word.
			var left []string
			for _, s := range c.Shards {
				left = append(left, fmt.Sprintf("%s (shard %d/%d)", s.Puzzle, s.Shard.Shard, s.Of))
			}
			for _, u := range c.Unfinished {
				left = append(left, u.Puzzle.String()+" (unfinished)")
			}
			if len(c.Board) > 0 {
				left = append(left, canon.Plural(int64(len(c.Board)), "toroidal or superqueen count"))
			}
			if len(c.Answers) > 0 {
				left = append(left, canon.Plural(int64(len(c.Answers)), "kept answer"))
			}
			if len(c.Counting) > 0 {
				left = append(left, canon.Plural(int64(len(c.Counting)), "count")+" not finished")
			}
			if len(c.Estimates) > 0 {
				left = append(left, canon.Plural(int64(len(c.Estimates)), "estimate"))
			}
			if len(left) > 0 {
				fmt.Fprintf(stderr, "solcat: not in the CSV: %s; 'solcat info' or --format json lists them\n", strings.Join(left, ", "))
			}
			return out.Close()
		}
		for _, s := range c.Shards {
			out.Write(s.JSON)
		}
		for _, u := range c.Unfinished {
			out.Write(u.JSON)
		}
		for _, b := range c.Board {
			out.Write(records.Obj("puzzle", b.Puzzle, "storage", "property", "property", b.Prop.String(), "solutions", b.Solutions, "classes", b.Classes))
		}
		for _, a := range c.Answers {
			out.Write(answerJSON(a))
		}
		for _, u := range c.Counting {
			out.Write(records.Obj("puzzle", u.Puzzle, "storage", "counting", "count", CountWhat(u.Question), "units", u.Units, "units_done", len(u.Saved)))
		}
		for _, e := range c.Estimates {
			out.Write(estimateJSON(e))
		}
		return out.Close()
	}
	var err error
	defer func() {
		for _, s := range c.Shards {
			fmt.Fprintln(stdout, s.Line)
		}
		for _, u := range c.Unfinished {
			fmt.Fprintln(stdout, u.Line)
		}
		writeBoard(stdout, c.Board)
		if len(c.Answers) > 0 {
			fmt.Fprintln(stdout, "answers kept from counts under a filter:")
		}
		for _, a := range c.Answers {
			fmt.Fprintf(stdout, "  %s %s: %s (%s, %.1f s on %s, %s)\n", a.Puzzle, a.Filter, humanize.Comma(a.Solutions)+" solutions",
				a.Method, a.Seconds, canon.Plural(int64(a.Workers), "goroutine"), a.RecordedAt)
		}
		if len(c.Counting) > 0 {
			fmt.Fprintln(stdout, "counts not finished (stopped, or shards of a split count), their units saved: the same count resumes; 'solcat merge' gathers shards:")
		}
		for _, u := range c.Counting {
			fmt.Fprintf(stdout, "  %s %s: %s of %s units\n", u.Puzzle, CountWhat(u.Question), humanize.Comma(int64(len(u.Saved))), humanize.Comma(int64(u.Units)))
		}
		if len(c.Estimates) > 0 {
			fmt.Fprintln(stdout, "estimates (not exact counts; 'solcat estimate' makes them):")
		}
		for _, e := range c.Estimates {
			fmt.Fprintf(stdout, "  %s\n", EstimateLine(e))
		}
		if c.Running && len(c.Unfinished) == 0 {
			fmt.Fprintf(stdout, "a build is writing this catalog: %s\n", c.Writer)
		}
	}()
	if len(recs) == 0 {
		if len(c.Shards) > 0 || len(c.Unfinished) > 0 || len(c.Estimates) > 0 || len(c.Counting) > 0 || c.Running {
			return nil
		}
		_, err := fmt.Fprintf(stdout, "%s holds no puzzles yet; run 'solcat build'\n", path)
		return err
	}
	if err := records.WriteRecordTable(stdout, recs, headers); err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, "OEIS entries checked: magic classes A006052 (solutions 8 times it from order 2), queens solutions A000170, classes A002562")
	return err
}

// writeBoard prints the toroidal and superqueen counts of the queens
// builds, a line a puzzle.
func writeBoard(w io.Writer, board []builder.BoardCount) {
	if len(board) == 0 {
		return
	}
	fmt.Fprintln(w, "toroidal and superqueen solutions, counted by the builds and checked against OEIS A051906 and A051223:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i := 0; i < len(board); {
		puzzle, line := board[i].Puzzle, "  "+board[i].Puzzle
		for ; i < len(board) && board[i].Puzzle == puzzle; i++ {
			line += fmt.Sprintf("\t%s %s (%s)", board[i].Prop, humanize.Comma(board[i].Solutions), canon.Plural(board[i].Classes, "class"))
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
}

// answerJSON is a kept answer as info's JSON lists it, told apart by its
// storage.
func answerJSON(a catalog.Answer) records.Object {
	return records.Obj("puzzle", a.Puzzle, "storage", "answer", "filter", a.Filter, "solutions", a.Solutions,
		"method", a.Method, "seconds", a.Seconds, "workers", a.Workers, "recorded_at", a.RecordedAt)
}

// EstimateLine is a kept estimate for people: never a bare number.
func EstimateLine(e catalog.Estimate) string {
	what := e.Puzzle
	if e.Filter != "" {
		what += " " + e.Filter
	}
	line := fmt.Sprintf("%s: about %.5g solutions (standard error %.2g%%, 95%% interval %.5g to %.5g)", what, e.Solutions,
		100*relative(e.SolutionsSE, e.Solutions), e.SolutionsLow, e.SolutionsHigh)
	if e.Classes != nil {
		se := 0.0
		if e.ClassesSE != nil {
			se = *e.ClassesSE
		}
		line += fmt.Sprintf(", about %.5g classes (%.2g%%)", *e.Classes, 100*relative(se, *e.Classes))
	}
	return line + fmt.Sprintf("; %s probes, %.1f s on %s, seed %d, %s", humanize.Comma(e.Probes), e.Seconds,
		canon.Plural(int64(e.Workers), "goroutine"), e.Seed, e.RecordedAt)
}

func relative(se, mean float64) float64 {
	if mean == 0 {
		return 0
	}
	return se / mean
}

// estimateJSON is a kept estimate as info's JSON lists it.
func estimateJSON(e catalog.Estimate) records.Object {
	null := func(v *float64) any {
		if v != nil {
			return *v
		}
		return nil
	}
	return records.Obj("puzzle", e.Puzzle, "storage", "estimate", "filter", e.Filter, "exact", false,
		"solutions", e.Solutions, "solutions_stderr", e.SolutionsSE, "solutions_low95", e.SolutionsLow, "solutions_high95", e.SolutionsHigh,
		"classes", null(e.Classes), "classes_stderr", null(e.ClassesSE), "classes_low95", null(e.ClassesLow), "classes_high95", null(e.ClassesHigh),
		"method", e.Method, "seed", e.Seed, "probes", e.Probes, "seconds", e.Seconds, "workers", e.Workers, "recorded_at", e.RecordedAt)
}

// CountWhat names the count whose units are saved under key: a board
// count by its property, else a filtered count.
func CountWhat(key []byte) string {
	if prop, _, _, ok := enumerate.ParseBoardKey(key); ok {
		return prop.String() + " count"
	}
	return "filtered count"
}
