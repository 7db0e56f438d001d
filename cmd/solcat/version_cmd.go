package main

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/alecthomas/kong"
	kongcompletion "github.com/jotaen/kong-completion"
	"github.com/posener/complete"

	"solcat/canon"
	"solcat/catalog"
	"solcat/enumerate"
	"solcat/migrations"
	"solcat/query/records"
)

// version is what this binary is: from the build information Go records.
type version struct {
	Module   string // the module version: v1.2.3, or (devel) for a build from a clone
	Revision string // the VCS revision built, if known
	Time     string // its commit time
	Modified bool   // built with uncommitted changes
	Go       string
	Schema   int64 // the newest catalog schema it knows
}

func readVersion() version {
	v := version{Module: "(devel)", Schema: migrations.Latest()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		v.Go = bi.GoVersion
		if bi.Main.Version != "" {
			v.Module = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Revision = s.Value
			case "vcs.time":
				v.Time = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	return v
}

func (v version) String() string {
	rev := "unknown revision"
	if v.Revision != "" {
		rev = "revision " + v.Revision[:min(len(v.Revision), 12)]
		if v.Time != "" {
			rev += " of " + v.Time
		}
		if v.Modified {
			rev += ", with changes"
		}
	}
	return fmt.Sprintf("solcat %s (%s), %s, catalog schema %d", v.Module, rev, v.Go, v.Schema)
}

func (v version) object() records.Object {
	return records.Obj("version", v.Module, "revision", v.Revision, "time", v.Time, "modified", v.Modified, "go", v.Go, "schema", v.Schema)
}

// versionFlag is --version (-v): print the version and exit.
type versionFlag bool

// BeforeReset prints the version before anything else is parsed.
func (versionFlag) BeforeReset(app *kong.Kong) error {
	fmt.Fprintln(app.Stdout, readVersion())
	app.Exit(0)
	return nil
}

type versionCmd struct {
	formatFlags
}

func (c *versionCmd) Run(e *env) error {
	format, err := c.format()
	if err != nil {
		return err
	}
	v := readVersion()
	if format == records.Text {
		_, err := fmt.Fprintln(e.stdout, v)
		return err
	}
	p := records.NewPrinter(e.stdout, format, !c.NoHeaders)
	if format == records.CSV {
		if err := p.Write(v.object()); err != nil {
			return err
		}
		return p.Close()
	}
	return p.WriteDocument(v.object())
}

// helpCmd is 'solcat help CMD': the help of CMD, as 'solcat CMD --help'.
type helpCmd struct {
	Command []string `arg:"" optional:"" help:"The command."`
}

func (h *helpCmd) Run(app *kong.Kong) error {
	_, err := app.Parse(append(h.Command, "--help")) // prints the help and exits
	return err
}

// completionPredictors complete the values of the flags and arguments
// that name puzzles, properties, formats and statistics.
func completionPredictors() []kongcompletion.Option {
	return []kongcompletion.Option{
		kongcompletion.WithPredictor("puzzle", complete.PredictFunc(catalogPuzzles)),
		kongcompletion.WithPredictor("buildable", complete.PredictSet(buildable()...)),
		kongcompletion.WithPredictor("prop", complete.PredictSet(append(canon.PropertyNames(canon.Magic), canon.PropertyNames(canon.Queens)...)...)),
		kongcompletion.WithPredictor("format", complete.PredictSet("text", "json", "jsonl", "csv")),
		kongcompletion.WithPredictor("exportformat", complete.PredictSet("csv", "json", "jsonl", "parquet")),
		kongcompletion.WithPredictor("showformat", complete.PredictSet("text", "json", "jsonl", "csv", "svg")),
		kongcompletion.WithPredictor("by", complete.PredictSet("cell:", "row:", "orbit", "prop:", "group")),
		kongcompletion.WithPredictor("partition", complete.PredictSet("orbit", "symmetry", "cell:", "row:")),
		kongcompletion.WithPredictor("file", complete.PredictFiles("*")),
	}
}

// buildable names every puzzle solcat builds or counts.
func buildable() []string {
	var out []string
	for n := 1; n <= enumerate.MaxCountedMagic; n++ {
		out = append(out, fmt.Sprintf("magic:%d", n))
	}
	for n := 1; n <= enumerate.MaxCountedQueens; n++ {
		out = append(out, fmt.Sprintf("queens:%d", n))
	}
	return out
}

// catalogPuzzles are the puzzles in the catalog the command line names
// (--db, or SOLCAT_DB, or ./solcat.db), or every buildable one.
func catalogPuzzles(a complete.Args) []string {
	db := os.Getenv("SOLCAT_DB")
	if db == "" {
		db = "./solcat.db"
	}
	for i, arg := range a.All {
		if v, ok := strings.CutPrefix(arg, "--db="); ok {
			db = v
		} else if arg == "--db" && i+1 < len(a.All) {
			db = a.All[i+1]
		}
	}
	cat, err := catalog.Open(context.Background(), db)
	if err != nil {
		return buildable()
	}
	defer cat.Close()
	recs, err := cat.Puzzles(context.Background())
	if err != nil || len(recs) == 0 {
		return buildable()
	}
	var names []string
	for _, r := range recs {
		names = append(names, r.Name)
	}
	return names
}
