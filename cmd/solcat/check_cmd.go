package main

import (
	"solcat/cmd/solcat/cliparse"
	"solcat/query/check"
)

type checkCmd struct {
	Puzzle string `arg:"" optional:"" predictor:"puzzle" help:"The puzzle (queens:8, or a kind: magic, queens); left out, the input says."`
	File   string `arg:"" optional:"" predictor:"file" help:"The solutions to check; - or none: the standard input."`
	cliparse.FormatFlags
}

func (c *checkCmd) Help() string { return helpText("check") }

func (c *checkCmd) Run(e *env) error {
	return check.Do(e.ctx, check.Call{First: c.Puzzle, Second: c.File, DB: e.cli.DB, Stdin: e.stdin, Stdout: e.stdout, Format: c.Format, Headers: !c.NoHeaders})
}
