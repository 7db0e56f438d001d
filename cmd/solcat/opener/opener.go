// Package opener opens the catalog a command names (--db): to read, saying
// what a file not there yet or not yet a catalog means; to keep the work
// of a command that reads; or to bind a stored puzzle, saying why one is
// not built. It remembers the catalogs it opened to read, so that the
// command can tell whether another program changed one under it.
package opener

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/catalog/catfile"
	"solcat/cmd/solcat/advice"
	"solcat/query"
)

// Opener opens one catalog file for a command.
type Opener struct {
	DB      string   // the catalog file
	Named   bool     // the file was named (--db, SOLCAT_DB), not left to the default
	Command []string // the command line, for the build lock's holder
	readers []*catalog.Catalog
}

// Open opens the catalog for reading. In the first instants of a build
// into a new file, the file is not there yet, or not yet a catalog: that
// is said as such. puzzle, if not empty, is the one the command asks about.
func (o *Opener) Open(ctx context.Context, puzzle string) (*catalog.Catalog, error) {
	cat, err := catalog.Open(ctx, o.DB)
	if err == nil {
		o.readers = append(o.readers, cat)
	}
	if errors.Is(err, catalog.ErrNoCatalog) || errors.Is(err, catalog.ErrNotCatalog) {
		if writer, running := catfile.RunningWriter(o.DB); running {
			if puzzle != "" && writer.Building(puzzle) {
				return nil, fmt.Errorf("%s is being built: just begun, by %s; wait for the build to finish", puzzle, writer)
			}
			return nil, fmt.Errorf("%s is being created by %s; wait a moment and try again", o.DB, writer)
		}
	}
	return cat, err
}

// Reading opens the catalog for reading if there is one (nil if not).
func (o *Opener) Reading(ctx context.Context) (*catalog.Catalog, error) {
	cat, err := catalog.Open(ctx, o.DB)
	if errors.Is(err, catalog.ErrNoCatalog) {
		return nil, nil
	}
	if err == nil {
		o.readers = append(o.readers, cat)
	}
	return cat, err
}

// Keeping opens the catalog to keep what a command that reads worked out
// (an estimate, a long count), creating it if need be (keeper.Opener):
// only a catalog the user named, or the default one if it exists. A
// question asked with no catalog at hand creates no file.
func (o *Opener) Keeping(ctx context.Context, puzzle string) (*catalog.Catalog, bool, error) {
	if _, err := os.Stat(o.DB); err != nil && !o.Named {
		return nil, false, nil
	}
	cat, err := catalog.Create(ctx, o.DB, o.Holder([]string{puzzle}))
	return cat, err == nil, err
}

// Target opens the catalog read-only and binds the named stored puzzle;
// done closes it.
func (o *Opener) Target(ctx context.Context, name string) (t *query.BoundPuzzle, done func(), err error) {
	p, err := canon.ParsePuzzle(name)
	if err != nil {
		return nil, nil, err
	}
	cat, err := o.Open(ctx, p.String())
	if err != nil {
		return nil, nil, err
	}
	rec, ok, err := cat.Puzzle(ctx, p.String())
	if err == nil && !ok {
		err = o.NotBuilt(ctx, cat, p)
	}
	if err == nil {
		t, err = query.Bind(ctx, cat, p, rec)
	}
	if err != nil {
		cat.Close()
		return nil, nil, err
	}
	return t, func() { cat.Close() }, nil
}

// Records gives the records of the puzzles in cat, or says why one is
// not built.
func (o *Opener) Records(ctx context.Context, cat *catalog.Catalog, puzzles []canon.Puzzle) ([]catalog.Record, error) {
	var recs []catalog.Record
	for _, p := range puzzles {
		rec, ok, err := cat.Puzzle(ctx, p.String())
		if err != nil {
			return nil, catfile.DamageError(o.DB, err)
		}
		if !ok {
			return nil, o.NotBuilt(ctx, cat, p)
		}
		recs = append(recs, rec)
	}
	return recs, nil
}

// Unrecorded is a count that needs nothing of its puzzle stored, with the
// answer an earlier count of it kept, if any.
type Unrecorded struct {
	query.Unrecorded
	Kept   bool
	Answer int64
}

// Unrecorded plans a count of f on p (classes when classes is set) that
// needs nothing of p stored (query.PlanUnrecorded), and looks up its kept
// answer, with the catalog if there is one; ok is false for the questions
// the catalog answers. A board count is narrowed to shard (the zero Shard:
// all of it) and to the units not saved by earlier runs; a shard of
// another count is refused.
func (o *Opener) Unrecorded(ctx context.Context, p canon.Puzzle, f query.Filter, classes bool, shard builder.Shard) (u Unrecorded, ok bool, err error) {
	cat, err := o.Reading(ctx)
	if err != nil {
		return u, false, err
	}
	if cat != nil {
		defer cat.Close()
	}
	if u.Unrecorded, ok, err = query.PlanUnrecorded(ctx, cat, p, f, classes, runtime.GOMAXPROCS(0)); err != nil || !ok {
		return u, ok, err
	}
	b, board := u.Unrecorded.(*query.BoardCount)
	if !board {
		if shard.Of > 0 {
			return u, ok, query.ErrFilterNotSharded
		}
		if cat != nil {
			u.Answer, u.Kept, err = u.LookUp(ctx, cat)
		}
		return u, ok, err
	}
	part := query.Part{Shard: shard.I, Of: shard.Of}
	if cat != nil {
		if shard.Of == 0 {
			if u.Answer, u.Kept, err = u.LookUp(ctx, cat); err != nil || u.Kept {
				return u, ok, err
			}
		}
		if b.Units() > 0 {
			if part.Saved, err = cat.Kept().SavedAnswerUnits(ctx, b.PuzzleName(), b.UnitKey(), b.Units()); err != nil {
				return u, ok, err
			}
		}
	}
	return u, ok, b.Take(part)
}

// NotBuilt says why cat has no record of p.
func (o *Opener) NotBuilt(ctx context.Context, cat *catalog.Catalog, p canon.Puzzle) error {
	a, err := builder.Absent(ctx, cat, o.DB, p)
	if err != nil {
		return err
	}
	return advice.NotBuilt(o.DB, p, a)
}

// Holder describes this process as the writer of a catalog that builds
// the named puzzles.
func (o *Opener) Holder(puzzles []string) catfile.Holder {
	return catfile.NewHolder("solcat "+strings.Join(o.Command, " "), puzzles)
}

// OwnFile reports whether path is the catalog or one of its files.
func (o *Opener) OwnFile(path string) bool { return catfile.IsOwnFile(o.DB, path) }

// Changed is the error of a catalog opened to read that another program
// changed under the command: what was read may not be the catalog's, and
// no answer, nor damage, is given from it.
func (o *Opener) Changed() error {
	var changed error
	for _, r := range o.readers {
		if err := r.Changed(); err != nil {
			changed = err
		}
	}
	return changed
}
