package main

import (
	"solcat/catalog/builder"
	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/help"
)

type infoCmd struct {
	cliparse.FormatFlags
}

func (i *infoCmd) Help() string { return help.Text("info") }

func (i *infoCmd) Run(e *env) error {
	format := i.Format
	cat, err := e.Open(e.ctx, "")
	if err != nil {
		return err
	}
	defer cat.Close()
	held, err := builder.Held(e.ctx, cat, e.DB)
	if err != nil {
		return err
	}
	return advice.ContentsOf(held).Write(e.stdout, e.stderr, format, !i.NoHeaders, e.DB)
}
