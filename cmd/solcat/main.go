// Command solcat builds and queries a catalog of every normal magic square
// and every N-queens solution, with canonical forms under the 8 symmetries.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

func main() {
	if os.Getenv("GOGC") == "" {
		// A scan reads its blocks through the SQLite driver, which copies
		// each into a new slice: with the default, the collector would run
		// every few megabytes of a scan that reads gigabytes.
		debug.SetGCPercent(400)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
