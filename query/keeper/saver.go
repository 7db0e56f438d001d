package keeper

import (
	"context"
	"fmt"
	"time"

	"solcat/canon"
	"solcat/catalog"
)

// saver saves the units of a long count as they are counted, every few
// seconds in one transaction, so that a count stopped by Ctrl-C resumes
// where it stopped (see migration 00017).
type saver struct {
	cat     *catalog.Catalog
	puzzle  string
	key     []byte
	units   int
	pending map[int]int64
	saved   int // units in the catalog
	last    time.Time
	err     error
}

// saveEvery is how often the counted units are saved.
const saveEvery = 2 * time.Second

// saving opens the catalog to save a count's units, and gives the units
// an earlier run saved; nil and none saved when nothing is to be kept (no
// catalog at hand), or with the error when the catalog cannot be written.
func (k *Keeper) saving(ctx context.Context, puzzle string, key []byte, units int) (*saver, map[int]int64, error) {
	cat, ok, err := k.Open.Keeping(ctx, puzzle)
	if err != nil || !ok {
		return nil, map[int]int64{}, err
	}
	saved, err := cat.Kept().SavedAnswerUnits(ctx, puzzle, key, units)
	if err != nil {
		cat.Close()
		return nil, map[int]int64{}, err
	}
	s := &saver{cat: cat, puzzle: puzzle, key: key, units: units, pending: map[int]int64{}, last: time.Now(), saved: len(saved)}
	if s.saved > 0 {
		k.Note(fmt.Sprintf("resuming the count: %s of %s units are saved in the catalog", canon.Thousands(int64(s.saved)), canon.Thousands(int64(units))))
	}
	return s, saved, nil
}

func (s *saver) add(unit int, solutions int64) {
	s.pending[unit] = solutions
	if UnitCounted != nil {
		UnitCounted(s.saved + len(s.pending))
	}
	if time.Since(s.last) >= saveEvery {
		s.flush(context.Background())
	}
}

// flush saves the pending units; after Ctrl-C too.
func (s *saver) flush(ctx context.Context) {
	s.last = time.Now()
	if len(s.pending) == 0 || s.err != nil {
		return
	}
	if s.err = s.cat.Kept().SaveAnswerUnits(context.WithoutCancel(ctx), s.puzzle, s.key, s.units, s.pending); s.err == nil {
		s.saved += len(s.pending)
		s.pending = map[int]int64{}
	}
}

// close lets the catalog go; a nil saver has none.
func (s *saver) close() {
	if s != nil {
		s.cat.Close()
	}
}

// stop is the error of a count that failed with err. After Ctrl-C it
// saves what was left counted and says what is saved.
func (s *saver) stop(ctx context.Context, err error) error {
	if s == nil || ctx.Err() == nil {
		s.close()
		return Stopped(ctx, err)
	}
	s.flush(ctx)
	s.close()
	return &StoppedError{Saved: s.saved, Units: s.units, SaveErr: s.err}
}

// keep records the finished count's answers and drops its saved units.
// A Ctrl-C as the count ends still keeps them.
func (s *saver) keep(ctx context.Context, answers []catalog.Answer) error {
	ctx = context.WithoutCancel(ctx)
	err := keepAll(ctx, s.cat, answers)
	if err == nil {
		err = s.cat.Kept().DropAnswerUnits(ctx, s.puzzle, s.key)
	}
	if cerr := s.cat.Close(); err == nil {
		err = cerr
	}
	return err
}
