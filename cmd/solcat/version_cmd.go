package main

import (
	"fmt"

	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/release"
	"solcat/query/records"

	"github.com/alecthomas/kong"
)

// versionFlag is --version (-v): print the version and exit.
type versionFlag bool

// BeforeReset prints the version before anything else is parsed.
func (versionFlag) BeforeReset(app *kong.Kong) error {
	fmt.Fprintln(app.Stdout, release.Read())
	app.Exit(0)
	return nil
}

type versionCmd struct {
	cliparse.FormatFlags
}

func (c *versionCmd) Run(e *env) error {
	format, err := c.Chosen()
	if err != nil {
		return err
	}
	v := release.Read()
	if format == records.Text {
		_, err := fmt.Fprintln(e.stdout, v)
		return err
	}
	p := records.NewPrinter(e.stdout, format, !c.NoHeaders)
	if format == records.CSV {
		if err := p.Write(v.Object()); err != nil {
			return err
		}
		return p.Close()
	}
	return p.WriteDocument(v.Object())
}

// helpCmd is 'solcat help CMD': the help of CMD, as 'solcat CMD --help'.
type helpCmd struct {
	Command []string `arg:"" optional:"" predictor:"command" help:"The command."`
}

func (h *helpCmd) Run(app *kong.Kong) error {
	_, err := app.Parse(append(h.Command, "--help")) // prints the help and exits
	return err
}
