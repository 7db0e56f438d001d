package records

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/dustin/go-humanize"

	"solcat/canon"
)

// Timing is one method's result in a benchmark: its counts, the median of
// its run times and how many times the fastest method's that is.
type Timing struct {
	Method    string
	About     string
	Solutions int64
	Nodes     int64
	Seconds   float64
	Ratio     float64
}

// Bench is a benchmark of methods on one puzzle: runs of each, on cores.
type Bench struct {
	Puzzle      canon.Puzzle
	Runs, Cores int
	Timings     []Timing
}

// WriteBench writes a benchmark: as a table of the medians, or a record a
// method.
func WriteBench(w io.Writer, format Format, headers bool, b Bench) error {
	if format != Text {
		out := NewPrinter(w, format, headers)
		for _, r := range b.Timings {
			out.Write(Obj("puzzle", b.Puzzle.String(), "method", r.Method, "solutions", r.Solutions, "nodes", r.Nodes, "seconds", r.Seconds, "ratio", r.Ratio, "runs", b.Runs, "cores", b.Cores, "about", r.About))
		}
		return out.Close()
	}
	fmt.Fprintf(w, "%s, median of %d run(s), %d cores\n", b.Puzzle, b.Runs, b.Cores)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	if headers {
		fmt.Fprintln(tw, "method\tsolutions\tnodes\ttime\tratio\t")
	}
	for _, r := range b.Timings {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.1fx\t\n", r.Method, humanize.Comma(r.Solutions), humanize.Comma(r.Nodes), seconds(r.Seconds), r.Ratio)
	}
	return tw.Flush()
}

// seconds writes a run time: milliseconds under a second.
func seconds(s float64) string {
	if s < 1 {
		return fmt.Sprintf("%.1f ms", s*1000)
	}
	return fmt.Sprintf("%.2f s", s)
}
