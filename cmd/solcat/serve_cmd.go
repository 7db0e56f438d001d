package main

import (
	"fmt"
	"net"

	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/help"
	"solcat/cmd/solcat/release"
	"solcat/cmd/solcat/web"
)

type serveCmd struct {
	cliparse.ServeFlags
}

func (s *serveCmd) Help() string { return help.Text("serve") }

func (s *serveCmd) Run(e *env) error {
	hosts, err := s.Hosts()
	if err != nil {
		return err
	}
	cat, err := e.Open(e.ctx, "")
	if err != nil {
		return err
	}
	defer cat.Close()
	cat.YieldToWriters() // a build's checkpoints wait for no idle connection
	listener, err := net.Listen("tcp", s.Addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", s.Addr, err)
	}
	srv := web.New(cat, e.DB, web.Options{Timeout: s.Timeout, DownloadTimeout: s.DownloadTimeout, ClientTimeout: s.ClientTimeout,
		Concurrent: s.Concurrent, Downloads: s.Downloads, Public: s.Public, Hosts: hosts, Version: release.Read().Module,
		Builds: advice.Builds{Cat: cat, Path: e.DB}})
	fmt.Fprintf(e.stdout, "serving %s at http://%s/ (Ctrl-C stops)\n", e.DB, listener.Addr())
	return srv.Serve(e.ctx, listener)
}
