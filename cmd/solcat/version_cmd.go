package main

import (
	"fmt"
	"runtime/debug"

	"github.com/alecthomas/kong"

	"solcat/migrations"
	"solcat/query"
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

func (v version) object() query.Object {
	return query.O("version", v.Module, "revision", v.Revision, "time", v.Time, "modified", v.Modified, "go", v.Go, "schema", v.Schema)
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
	if format == query.Text {
		_, err := fmt.Fprintln(e.stdout, v)
		return err
	}
	p := query.NewPrinter(e.stdout, format, !c.NoHeaders)
	if format == query.CSV {
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
