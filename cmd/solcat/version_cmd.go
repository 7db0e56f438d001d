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

// BeforeReset prints the version before anything else is parsed, unless
// --help came first.
func (versionFlag) BeforeReset(app *kong.Kong, exit *exitCode) error {
	if !exit.asked {
		fmt.Fprintln(app.Stdout, release.Read())
		app.Exit(0)
	}
	return nil
}

type versionCmd struct {
	cliparse.FormatFlags
}

func (c *versionCmd) Run(s streams) error {
	v := release.Read()
	if c.Format == records.Text {
		_, err := fmt.Fprintln(s.out, v)
		return err
	}
	return records.WriteOne(s.out, c.Format, !c.NoHeaders, v.Object())
}

// helpCmd is 'solcat help CMD': the help of CMD, as 'solcat CMD --help'.
type helpCmd struct {
	Command []string `arg:"" optional:"" predictor:"command" help:"The command."`
}

func (h *helpCmd) Run(app *kong.Kong, exit *exitCode) error {
	_, err := app.Parse(append(h.Command, "--help")) // prints the help and asks to exit
	if exit.asked {
		return nil
	}
	return err
}
