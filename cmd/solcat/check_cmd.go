package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"solcat/canon"
	"solcat/catalog"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/help"
	"solcat/query/check"
)

type checkCmd struct {
	Puzzle string `arg:"" optional:"" predictor:"puzzle" help:"The puzzle (queens:8, or a kind: magic, queens); left out, the input says."`
	File   string `arg:"" optional:"" predictor:"file" help:"The solutions to check; - or none: the standard input."`
	cliparse.FormatFlags
}

func (c *checkCmd) Help() string { return help.Text("check") }

func (c *checkCmd) Run(ctx context.Context, s streams, e *env) error {
	hint, file, err := checkArguments(c.Puzzle, c.File)
	if err != nil {
		return err
	}
	in := s.in
	if file != "-" {
		f, err := os.Open(file)
		if err != nil {
			return &check.ReadError{Problem: fmt.Sprintf("cannot read %s: %v; name a file of solutions, or - for the standard input", file, errors.Unwrap(err))}
		}
		defer f.Close()
		in = f
	}
	// The catalog is opened once the input is read: one that cannot be
	// read is said as such, whatever the catalog.
	open := func(p canon.Puzzle) (check.Store, error) {
		cat, err := catalog.Open(ctx, e.DB)
		if errors.Is(err, catalog.ErrNoCatalog) {
			return check.Stored(ctx, nil, e.DB, p)
		} else if err != nil {
			return check.Store{}, err
		}
		store, err := check.Stored(ctx, cat, e.DB, p)
		store.Unfound = fmt.Sprintf("run 'solcat verify %s'", p)
		return store, err
	}
	return check.Do(ctx, in, hint, open, check.Output{W: s.out, Format: c.Format, Headers: !c.NoHeaders})
}

// checkArguments reads check's arguments, [PUZZLE] [FILE|-]: a first
// argument that names a puzzle (KIND or KIND:N) is the puzzle, any other
// is the file (write ./queens:8 for a file of that name). No file, or
// "-", is the standard input.
func checkArguments(first, second string) (hint check.Hint, file string, err error) {
	if first == "" {
		return check.Hint{}, "-", nil
	}
	hint, err = check.ParseHint(first)
	if err != nil && (strings.Contains(first, ":") && !strings.ContainsAny(first, "/.") || second != "") {
		return check.Hint{}, "", err // a puzzle misspelt
	}
	if err != nil {
		return check.Hint{}, first, nil
	}
	if second == "" {
		second = "-"
	}
	return hint, second, nil
}
