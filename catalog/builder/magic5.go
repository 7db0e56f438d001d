package builder

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/catfile"
	"solcat/enumerate"
)

// magic:5 is stored as its 275,305,224 classes, in two resumable phases:
//
//  1. The frame search lists the basic squares unit by unit (3,636 units);
//     each gives the canonical forms of its 8 classes (4, centre 13), packed
//     in 16 bytes, which go to bucket files beside the catalog by their first
//     two cells (a Spill). A checkpoint every few seconds saves the
//     units done with the files; a killed build redoes only the units after.
//  2. Bucket by bucket, in key order, the forms are sorted and inserted with
//     consecutive IDs, so the B-tree is filled left to right, in units of
//     about 4 million rows like any stored build.
//
// The counts are checked at the end against the published ones (classes,
// by centre for centre 1, the three properties) before the tables are put
// in place.

// magic5Layout names how the stored build is cut; saved work with another
// layout starts over.
func magic5Layout(units int) catalog.Layout {
	return catalog.Layout{Solver: SolverVersion, Cut: catalog.CutMagic5Frames, Units: units}
}

// magic5UnitRows is how many classes the insert commits at a time: a
// killed build loses at most a few seconds. Tests make it smaller.
var magic5UnitRows int64 = 1 << 22

// magic5Hook is called after each unit of phase 1 ("forms") and each class
// of phase 2 ("insert"); tests interrupt builds from it.
var magic5Hook = func(phase string, done int64) {}

// magic5Progress is what phase 1 saves with each checkpoint: the basic
// squares per centre and, per cell and value, how many canonical forms hold
// that value there (which gives every single-cell count, see cellBreakdown).
type magic5Progress struct {
	Basic [26]int64     `json:"basic"`
	Cells [25][26]int64 `json:"cells"`
}

// storeMagic5 builds magic:5 as its classes only, from the given units
// (all of them, but for tests); published is false only when tests build
// from a few units, whose counts nobody has published.
func (b *Builder) storeMagic5(ctx context.Context, p canon.Puzzle, o Options, units []enumerate.Magic5Unit, published bool) (catalog.Record, error) {
	start := time.Now()
	workers := o.workers()
	sortDir := catfile.SortFolder(b.Cat.Path())
	spill, err := OpenSpill(sortDir, magic5Layout(len(units)).String())
	if err != nil {
		return catalog.Record{}, err
	}
	defer spill.Close()
	var progress magic5Progress
	if raw := spill.Progress(); len(raw) > 0 {
		if err := json.Unmarshal(raw, &progress); err != nil {
			return catalog.Record{}, fmt.Errorf("%w: the build's sort folder %s has a damaged checkpoint (%v)", ErrDamagedSort, sortDir, err)
		}
	}
	if err := b.magic5Forms(ctx, o, spill, units, workers, &progress); err != nil {
		return catalog.Record{}, err
	}
	rec := catalog.Record{
		Kind: p.Kind, N: p.N, Storage: catalog.StorageClasses, Workers: workers,
		BuiltAt: start.UTC().Truncate(time.Second), SolverVersion: SolverVersion,
	}
	for c := 1; c <= 13; c++ {
		per := int64(8) // classes per basic square: 4, and 4 of the complement
		if c == 13 {
			per = 4
		}
		rec.Classes += per * progress.Basic[c]
	}
	rec.Solutions, rec.Orbits[8] = 8*rec.Classes, rec.Classes
	if published {
		if err := checkKnown(p, &rec); err != nil {
			return rec, err
		}
	}
	if err := b.magic5Insert(ctx, o, p, spill, &rec, progress, start, published, len(units)); err != nil {
		return rec, err
	}
	if err := spill.Remove(); err != nil { // the puzzle is stored: say so, do not fail
		o.notice("%s: stored, but its sort folder %s could not be deleted (%v); it can be deleted by hand", p, sortDir, err)
	}
	return rec, nil
}

// ErrDamagedSort means the sort folder of a stored magic:5 build cannot
// be resumed: deleting it starts the build over.
var ErrDamagedSort = errors.New("damaged sort folder")

// removeStaleSort deletes the sort folder a finished magic:5 build left if
// it was killed between its last commit and the folder's removal.
func (b *Builder) removeStaleSort(o Options) {
	dir := catfile.SortFolder(b.Cat.Path())
	if _, ok := SpillUnitsDone(dir); !ok {
		return
	}
	// Opening it takes its lock: a build still using it is left alone.
	if spill, err := OpenSpill(dir, "stale"); err == nil && spill.Remove() == nil {
		o.notice("magic:5: deleted %s, left by an earlier build that finished", dir)
	}
}

// magic5Forms runs phase 1 from the last checkpoint on.
func (b *Builder) magic5Forms(ctx context.Context, o Options, spill *Spill, units []enumerate.Magic5Unit, workers int, progress *magic5Progress) error {
	from := spill.UnitsDone()
	if from == len(units) {
		return nil
	}
	if from > 0 {
		o.notice("magic:5: resuming the class search at unit %s of %s", canon.Thousands(int64(from+1)), canon.Thousands(int64(len(units))))
	}
	todo := make([]int, 0, len(units)-from)
	for i := from; i < len(units); i++ {
		todo = append(todo, i)
	}
	bar := o.progress("magic:5 class search", "units")
	defer bar.Finish()
	bar.Update(int64(from), int64(len(units)))
	last := time.Now()
	consumed := from // units whose forms are all in the spill
	err := enumerate.Magic5ClassForms(ctx, units, todo, workers, func(i int, f enumerate.Magic5Forms) error {
		if err := spill.Add(f.Forms); err != nil {
			return err
		}
		consumed = i + 1
		progress.Basic[units[i].Centre] += f.Basic
		var form [25]byte
		for _, k := range f.Forms {
			canon.Unpack25(k, &form)
			for cell, v := range form {
				progress.Cells[cell][v]++
			}
		}
		bar.Update(int64(i+1), int64(len(units)))
		magic5Hook("forms", int64(i+1))
		if i+1 == len(units) || time.Since(last) > 10*time.Second {
			last = time.Now()
			return spill.Checkpoint(i+1, progress)
		}
		return nil
	})
	if err != nil && ctx.Err() != nil {
		// Interrupted: keep every unit handed over so far.
		if cerr := spill.Checkpoint(consumed, progress); cerr == nil {
			return &StoppedError{Puzzle: "magic:5", Done: int64(consumed), Total: int64(len(units)), What: "units of its class search", Err: ErrInterrupted}
		}
		return &StoppedError{Puzzle: "magic:5", Done: int64(spill.UnitsDone()), Total: int64(len(units)), What: "units of its class search", Err: ErrInterrupted}
	}
	if err != nil {
		return &StoppedError{Puzzle: "magic:5", Done: int64(spill.UnitsDone()), Total: int64(len(units)), What: "units of its class search",
			Err: fmt.Errorf("%w (writing the sort folder %s: %v)", ErrDiskFull, catfile.SortFolder(b.Cat.Path()), err)}
	}
	return nil
}

// magic5Insert runs phase 2: buckets in key order, IDs counted on from the
// committed rows.
func (b *Builder) magic5Insert(ctx context.Context, o Options, p canon.Puzzle, spill *Spill, rec *catalog.Record, progress magic5Progress, start time.Time, published bool, units int) error {
	plan := catalog.BuildPlan{Layout: magic5Layout(units), UnitRows: magic5UnitRows, RowsTotal: rec.Classes}
	w, err := b.Cat.BeginClasses(ctx, p, plan)
	if err != nil {
		return begun(ctx, p, err)
	}
	defer w.Rollback()
	if why := w.Discarded(); why != "" {
		o.notice("%s: the saved unfinished build could not be resumed (%s); starting over", p, why)
	}
	committed, _ := w.Saved()
	if committed > 0 {
		o.notice("%s: resuming the insert at class %s of %s", p, canon.Thousands(int64(committed+1)), canon.Thousands(rec.Classes))
	}
	// Sort the next bucket while this one is inserted.
	buckets := spill.Buckets()
	type sorted struct {
		keys  []canon.Packed25
		first int64 // ID of the first key
		err   error
	}
	next := make(chan sorted, 1)
	sortCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		defer close(next)
		id := int64(1)
		for _, bk := range buckets {
			if id+bk.Keys-1 <= committed {
				id += bk.Keys // committed by an earlier run
				continue
			}
			keys, err := spill.Sorted(bk)
			select {
			case next <- sorted{keys, id, err}:
			case <-sortCtx.Done():
				return
			}
			if err != nil {
				return
			}
			id += bk.Keys
		}
	}()
	bar := o.progress("magic:5 classes", "classes")
	defer bar.Finish()
	bar.Update(committed, rec.Classes)
	var prev canon.Packed25
	var form [25]byte
	for s := range next {
		if s.err != nil {
			return s.err
		}
		for k, key := range s.keys {
			id := s.first + int64(k)
			if (k > 0 || id > 1) && !prev.Less(key) && id > committed+1 {
				return fmt.Errorf("%s: %w: class forms out of order or repeated at class %d; nothing was stored", p, ErrBug, id)
			}
			prev = key
			if id <= committed {
				continue
			}
			canon.Unpack25(key, &form)
			if err := w.AddClass(id, key.Bytes(), 8, uint32(canon.Magic5Properties(&form))); err != nil {
				return stopped(ctx, p, w, err, "classes")
			}
			magic5Hook("insert", id)
			if id%(1<<16) == 0 {
				bar.Update(id, rec.Classes)
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return stopped(ctx, p, w, err, "classes")
	}
	breakdown, err := magic5Breakdown(ctx, w, progress, published)
	if err != nil {
		w.Rollback() // Abandon needs the catalog's one connection
		b.Cat.Work().Abandon(ctx, p.String())
		return err
	}
	rec.BuildSeconds = time.Since(start).Seconds()
	if err := w.Commit(*rec, breakdown...); err != nil {
		return stopped(ctx, p, w, err, "classes")
	}
	return nil
}

// magic5Breakdown checks the stored properties against the published
// counts and returns the counts to record: by properties, and for every
// cell and value (so 'count magic:5 --cell R,C=V' needs no scan).
func magic5Breakdown(ctx context.Context, w *catalog.ClassWriter, progress magic5Progress, published bool) ([]catalog.Breakdown, error) {
	byProps, err := w.PropsCounts(ctx)
	if err != nil {
		return nil, err
	}
	// Recorded as for the count-only build: classes having each property
	// (and both of associative and pandiagonal, the ultramagic squares).
	having := func(want canon.Property) int64 {
		var n int64
		for props, count := range byProps {
			if canon.Property(props)&want == want {
				n += count
			}
		}
		return n
	}
	associative, ultramagic, pandiagonal := having(canon.Associative), having(canon.Associative|canon.Pandiagonal), having(canon.Pandiagonal)
	if published && (associative != canon.Magic5AssociativeClasses || ultramagic != canon.Magic5UltramagicClasses || pandiagonal != canon.Magic5PandiagonalClasses) {
		return nil, fmt.Errorf("magic:5: %w: %d associative, %d ultramagic and %d pandiagonal classes stored, %d, %d and %d published; nothing was stored",
			ErrBug, associative, ultramagic, pandiagonal, canon.Magic5AssociativeClasses, canon.Magic5UltramagicClasses, canon.Magic5PandiagonalClasses)
	}
	var out []catalog.Breakdown
	for _, ps := range []canon.Property{canon.Pandiagonal, canon.Associative, canon.Associative | canon.Pandiagonal, canon.SelfComplementary} {
		n := having(ps)
		out = append(out, catalog.Breakdown{Stat: catalog.StatProps, Value: int(ps), Solutions: 8 * n, Classes: n})
	}
	cells := cellBreakdown(canon.Puzzle{Kind: canon.Magic, N: 5}, progress.Cells)
	if centre1 := cells[12*25]; published && (centre1.Value != 1 || centre1.Classes != 4365792) {
		return nil, fmt.Errorf("magic:5: %w: %d classes with centre 1, 4,365,792 published; nothing was stored", ErrBug, centre1.Classes)
	}
	return append(out, cells...), nil
}

// cellBreakdown turns counts of canonical forms by cell and value into the
// counts of squares and of classes by cell and value. The members of a class
// with value v at cell x are its images s(C) with C[s⁻¹(x)] = v; as s runs
// over the 8 symmetries, s⁻¹(x) runs over the orbit O of x, 8/|O| times
// each. So a class has 8/|O| such members if v is on O in its canonical form
// and none otherwise: classes(x, v) = Σ over y in O of forms(y, v).
func cellBreakdown(p canon.Puzzle, forms [25][26]int64) []catalog.Breakdown {
	n := p.N
	var out []catalog.Breakdown
	for x := 0; x < n*n; x++ {
		orbit := map[int]bool{}
		for _, s := range canon.All {
			r, c := s.Map(n, x/n, x%n)
			orbit[r*n+c] = true
		}
		for v := 1; v <= n*n; v++ {
			var classes int64
			for y := range orbit {
				classes += forms[y][v]
			}
			out = append(out, catalog.Breakdown{Stat: catalog.StatCell(x/n+1, x%n+1), Value: v,
				Solutions: classes * int64(8/len(orbit)), Classes: classes})
		}
	}
	return out
}
