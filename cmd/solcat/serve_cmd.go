package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"time"

	"solcat/query/web"
)

type serveCmd struct {
	Addr            string        `default:"127.0.0.1:8765" placeholder:"HOST:PORT" help:"Address to listen on; one that is not loopback needs --public."`
	Public          bool          `help:"Allow an --addr that other machines can reach."`
	Timeout         time.Duration `default:"30s" help:"Time limit of each page's queries."`
	Concurrent      int           `default:"0" help:"Queries that run at once (default: two per core); more wait for a slot."`
	DownloadTimeout time.Duration `default:"10m" help:"Time limit of each download (CSV, JSON lines, Parquet)."`
}

func (s *serveCmd) Help() string {
	return `Serves the catalog as web pages, read-only: the catalog, each puzzle with
a filter form (click squares of the board, or type values in the grid) and
its solutions or classes drawn, a class with its members, a solution,
statistics as charts, heat maps, and downloads of what a page shows.
Every page is also JSON at the same address with .json at its end.

Examples:
  solcat serve                             # then open http://127.0.0.1:8765/
  solcat --db big.db serve --addr 127.0.0.1:9000 --timeout 2m
  solcat serve --addr 0.0.0.0:8765 --public   # reachable from other machines`
}

func (s *serveCmd) Run(e *env) error {
	host, port, err := net.SplitHostPort(s.Addr)
	if err != nil {
		return usagef("--addr %s: write HOST:PORT, for example 127.0.0.1:8765", s.Addr)
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return usagef("--addr %s: the port is a number from 0 to 65535; write HOST:PORT, for example 127.0.0.1:8765", s.Addr)
	}
	if !s.Public && !loopback(host) {
		return usagef("--addr %s can be reached from other machines; add --public to serve there, or use 127.0.0.1", s.Addr)
	}
	switch {
	case s.Timeout <= 0:
		return usagef("--timeout %s is not positive; give a duration such as 30s or 2m", s.Timeout)
	case s.DownloadTimeout <= 0:
		return usagef("--download-timeout %s is not positive; give a duration such as 10m", s.DownloadTimeout)
	case s.Concurrent < 0:
		return usagef("--concurrent %d is negative; give 1 or more, or 0 for two per core", s.Concurrent)
	}
	cat, err := e.open("")
	if err != nil {
		return err
	}
	defer cat.Close()
	cat.KeepNoIdleConnections() // a build's checkpoints wait for none of them
	concurrent := s.Concurrent
	if concurrent == 0 {
		concurrent = 2 * runtime.NumCPU()
	}
	listener, err := net.Listen("tcp", s.Addr)
	if err != nil {
		return fmt.Errorf("cannot listen on %s: %w", s.Addr, err)
	}
	srv := &http.Server{
		Handler:           web.New(cat, e.cli.DB, web.Options{Timeout: s.Timeout, DownloadTimeout: s.DownloadTimeout, Concurrent: concurrent, Version: readVersion().Module}),
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return e.ctx },
	}
	fmt.Fprintf(e.stdout, "serving %s at http://%s/ (Ctrl-C stops)\n", e.cli.DB, listener.Addr())
	go func() {
		<-e.ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// loopback reports whether host can be reached from this machine only.
func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
