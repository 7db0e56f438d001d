package main

import (
	"fmt"

	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/help"
	"solcat/cmd/solcat/outfile"
	"solcat/query/records"
)

type showCmd struct {
	Puzzle string `arg:"" predictor:"puzzle" help:"The puzzle, for example queens:8."`
	cliparse.ShowFlags
}

func (s *showCmd) Help() string { return help.Text("show") }

func (s *showCmd) Run(e *env) error {
	format, err := s.Chosen()
	if err != nil {
		return err
	}
	classID, solutionID, err := s.Asked()
	if err != nil {
		return err
	}
	t, done, err := e.Target(e.ctx, s.Puzzle)
	if err != nil {
		return err
	}
	defer done()
	shown, err := t.Show(e.ctx, classID, solutionID)
	if err != nil {
		return err
	}
	if s.ToStdout() {
		return records.WriteShown(e.stdout, format, !s.NoHeaders, shown, s.ASCII)
	}
	out, err := outfile.Create(s.Output, e.stdout, e.OwnFile)
	if err != nil {
		return advice.OutputError(s.Output, err)
	}
	defer out.Abort()
	if err := records.WriteShown(out, format, !s.NoHeaders, shown, s.ASCII); err != nil {
		return fmt.Errorf("%w; nothing was written", err)
	}
	if err := out.Commit(); err != nil {
		return fmt.Errorf("%w; nothing was written", err)
	}
	fmt.Fprintf(e.stderr, "wrote %s to %s\n", records.ShownName(shown), s.Output)
	return nil
}
