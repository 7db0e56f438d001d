package main

import (
	"solcat/query"
	"solcat/query/records"
)

type listCmd struct {
	Puzzle string `arg:"" predictor:"puzzle" help:"The puzzle, for example queens:6."`
	filterFlags
	pageFlags
	explainFlag
	formatFlags
}

func (l *listCmd) Help() string {
	return `Text output has one solution per line: queens as the 1-based column of
the queen in each row (the USACO format), magic squares as their values row
by row, separated by single spaces. Solutions come in ID order, which is
lexicographic order; magic:5, queens:18 and queens:19, stored as their
classes, list class by class (class ID order), each class's members in
lexicographic order (magic:5: IDs 8(k-1)+1 to 8k for class k).

Examples:
  solcat list queens:6 --limit 3
  solcat list magic:4 --cell 1,1=1 --limit 5 --offset 10
  solcat list queens:8 --class 12 --format jsonl
  solcat list magic:5 --offset 2202441776 --limit 8   # a direct jump`
}

func (l *listCmd) Run(e *env) error {
	format, err := l.format()
	if err != nil {
		return err
	}
	page, err := l.page()
	if err != nil {
		return err
	}
	t, plan, done, err := e.planned(l.Puzzle, l.filterFlags, query.Question{Ask: query.AskList, Page: page})
	if err != nil {
		return err
	}
	defer done()
	if l.Explain {
		return e.explain(t, plan, format)
	}
	w := records.NewSolutionWriter(e.stdout, format, t.Puzzle, !l.NoHeaders)
	if err := t.List(e.ctx, plan, w.Write); err != nil {
		return err
	}
	return w.Close()
}
