package verify

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"solcat/canon"
	"solcat/catalog"
)

// QuickLook is the look a query takes at a puzzle before it answers, with
// store what is stored of it (nil if recorded by its counts, or
// unreadable): the record against itself, its name and the published
// counts, the tables its storage needs, the counts recorded for a puzzle
// known by its counts, the ends of its tables against the record
// (Stored.QuickCheck), and the block slots its solutions view joins with.
// A puzzle that fails it answers nothing, with a *catalog.DamagedError:
// its answers would come from a record its tables contradict.
func QuickLook(ctx context.Context, cat *catalog.Catalog, p canon.Puzzle, rec catalog.Record, store *catalog.Content) error {
	// A record that does not match its seal is said last: what else is
	// wrong with it says more.
	sealProblem := rec.SealProblem
	rec.SealProblem = ""
	defer func() { rec.SealProblem = sealProblem }()
	problems := recordProblems(p, rec)
	if len(problems) == 0 {
		tables, err := cat.Health().StorageProblems(ctx, rec)
		if err != nil {
			return err
		}
		problems = tables
	}
	if len(problems) == 0 && rec.Storage == catalog.StorageCounts {
		counts, err := countsBreakdownProblems(ctx, cat, p, rec)
		if err != nil {
			return err
		}
		problems = counts
	}
	if len(problems) == 0 && store != nil {
		ends, err := store.QuickCheck(ctx)
		if err != nil {
			return err
		}
		problems = ends
	}
	if len(problems) == 0 && store != nil && !store.ClassesOnly() {
		// Not read by queries, but by every SQL user of the puzzle's view.
		slots, err := cat.Health().BlockSlotsProblem(ctx)
		if err != nil {
			return err
		}
		if slots != "" {
			problems = []string{slots}
		}
	}
	if len(problems) == 0 && sealProblem != "" {
		problems = []string{sealProblem}
	}
	if len(problems) == 0 {
		return nil
	}
	return &catalog.DamagedError{Puzzle: p.String(), Path: cat.Path(), Problem: problems[0]}
}

// recordProblems checks a puzzle's record against itself, its name and
// the published counts, as far as queries answer from it: a query checks
// this before it answers, verify too.
func recordProblems(p canon.Puzzle, rec catalog.Record) (problems []string) {
	problem := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	// Last: what else is wrong with an edited record says more.
	defer func() {
		if rec.SealProblem != "" {
			problems = append(problems, rec.SealProblem)
		}
	}()
	if rec.Name != p.String() {
		problem("recorded under the name %q, not %s", rec.Name, p)
	}
	if rec.Kind != p.Kind || rec.N != p.N {
		problem("recorded as kind %q and N %d, but it is %s", rec.Kind, rec.N, p)
	}
	o := rec.Orbits
	if classes, solutions := o[1]+o[2]+o[4]+o[8], o[1]+2*o[2]+4*o[4]+8*o[8]; classes != rec.Classes || solutions != rec.Solutions {
		problem("recorded counts disagree: %d solutions and %d classes, but classes by orbit size %d/%d/%d/%d, which make %d solutions and %d classes",
			rec.Solutions, rec.Classes, o[1], o[2], o[4], o[8], solutions, classes)
	}
	// A record that says it was checked against the published counts
	// must match them (a sample built in tests records none).
	if known, ok := canon.KnownCounts(p); ok && checkedAgainstPublished(rec) {
		if m := known.Mismatch(rec.Solutions, rec.Classes, rec.Orbits); m != "" {
			problem("recorded counts %s", m)
		}
	}
	return problems
}

// buildRecordProblems checks what else the record says of the build,
// which info shows: the published counts it was checked against, the
// content hash of a puzzle with no content, the build's figures and time.
func buildRecordProblems(p canon.Puzzle, rec catalog.Record) []string {
	var problems []string
	problem := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if known, ok := canon.KnownCounts(p); ok {
		// The published counts the build recorded are solcat's own: a
		// changed one would make a wrong count look checked.
		m := known.Mismatch(rec.Solutions, rec.Classes, rec.Orbits)
		switch {
		case m != "" && !checkedAgainstPublished(rec):
			problem("recorded counts %s", m)
		case m != "":
			// recordProblems names it
		case !equalCount(rec.KnownSolutions, known.Solutions) || !equalCount(rec.KnownClasses, known.Classes):
			problem("recorded published counts (%s solutions, %s classes) differ from the published values, %d and %d",
				countText(rec.KnownSolutions), countText(rec.KnownClasses), known.Solutions, known.Classes)
		case !rec.Verified:
			problem("recorded as not matching the published counts")
		}
	}
	if rec.Storage == catalog.StorageCounts && rec.ContentHash != "" {
		problem("recorded as counts only, yet with a content hash (%.16s), which only stored content has", rec.ContentHash)
	}
	if rec.SearchNodes < 0 || rec.Workers < 0 || !(rec.BuildSeconds >= 0) || math.IsInf(rec.BuildSeconds, 0) {
		problem("recorded build figures are impossible: %d search nodes, %d workers, %g seconds", rec.SearchNodes, rec.Workers, rec.BuildSeconds)
	}
	if _, err := time.Parse(time.RFC3339, rec.BuiltAtText); err != nil && rec.BuiltAt.IsZero() {
		problem("recorded build time %q is not an RFC 3339 time", rec.BuiltAtText)
	}
	return problems
}

// checkedAgainstPublished reports whether a record says its build
// compared its counts with the published ones.
func checkedAgainstPublished(rec catalog.Record) bool {
	return rec.Verified || rec.KnownSolutions != nil || rec.KnownClasses != nil
}

// equalCount reports whether a recorded count is there and is n.
func equalCount(recorded *int64, n int64) bool { return recorded != nil && *recorded == n }

func countText(recorded *int64) string {
	if recorded == nil {
		return "none"
	}
	return fmt.Sprint(*recorded)
}

// MatchesPublished reports whether a record's counts, and the published
// counts it recorded, equal the published values solcat knows: a record
// changed by hand does not say it matches.
func MatchesPublished(r catalog.Record) bool {
	p, err := canon.ParsePuzzle(r.Name)
	if err != nil {
		return false
	}
	known, ok := canon.KnownCounts(p)
	return ok && r.Verified && known.Mismatch(r.Solutions, r.Classes, r.Orbits) == "" &&
		equalCount(r.KnownSolutions, known.Solutions) && equalCount(r.KnownClasses, known.Classes)
}

// countsBreakdownProblems checks the counts recorded for a puzzle known by
// its counts alone, which count and stats answer from (a few dozen rows,
// so queries check them too). Only magic:5's count records some: by the
// centre value (each class counted once by its centre, which the
// complement x -> 26-x turns into 26 minus it) and for three properties,
// whose classes are published.
func countsBreakdownProblems(ctx context.Context, cat *catalog.Catalog, p canon.Puzzle, rec catalog.Record) (problems []string, err error) {
	rows, err := cat.Health().Breakdowns(ctx, rec.Name)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	problem := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	// Last: what else is wrong with an edited row says more.
	defer func() {
		for _, r := range rows {
			if r.Unsealed {
				problem("its count recorded by %s, value %d, does not match its seal", r.Stat, r.Value)
			}
		}
	}()
	if p.Kind != canon.Magic || p.N != 5 {
		problem("the table count_breakdown holds %d counts recorded for it (the first by %s), but its count records none: count and stats would answer from them", len(rows), rows[0].Stat)
		return problems, nil
	}
	centre := catalog.StatCell(3, 3)
	byCentre := map[int]catalog.Breakdown{}
	props := map[canon.Property]catalog.Breakdown{}
	for _, r := range rows {
		switch {
		case r.Stat == centre && r.Value >= 1 && r.Value <= 25:
			byCentre[r.Value] = r
		case r.Stat == catalog.StatProps:
			props[canon.Property(r.Value)] = r
		default:
			problem("recorded counts by %s, value %d: not a count magic:5's count records", r.Stat, r.Value)
			continue
		}
		if r.Solutions != 8*r.Classes {
			problem("recorded counts by %s, value %d: %d solutions, %d classes; every class of magic:5 has 8 members", r.Stat, r.Value, r.Solutions, r.Classes)
		}
	}
	var solutions, classes int64
	for v := 1; v <= 25; v++ {
		r, ok := byCentre[v]
		if !ok {
			problem("recorded counts by %s: value %d is missing", centre, v)
			continue
		}
		solutions, classes = solutions+r.Solutions, classes+r.Classes
		if c, ok := byCentre[26-v]; ok && v < 13 && (c.Solutions != r.Solutions || c.Classes != r.Classes) {
			problem("recorded counts by %s: value %d has %d classes, value %d has %d; the complement makes them equal", centre, v, r.Classes, 26-v, c.Classes)
		}
	}
	if len(byCentre) == 25 && (solutions != rec.Solutions || classes != rec.Classes) {
		problem("recorded counts by %s add up to %d solutions and %d classes, %d and %d recorded", centre, solutions, classes, rec.Solutions, rec.Classes)
	}
	for _, want := range []struct {
		props   canon.Property
		classes int64
	}{
		{canon.Associative, canon.Magic5AssociativeClasses},
		{canon.Associative | canon.Pandiagonal, canon.Magic5UltramagicClasses},
		{canon.Pandiagonal, canon.Magic5PandiagonalClasses},
	} {
		r, ok := props[want.props]
		switch {
		case !ok:
			problem("recorded counts of %s are missing", want.props)
		case r.Classes != want.classes:
			problem("recorded counts of %s: %d classes, %d published", want.props, r.Classes, want.classes)
		}
		delete(props, want.props)
	}
	for _, ps := range slices.Sorted(maps.Keys(props)) {
		problem("recorded counts by properties: %d is not a set of properties counted for magic:5", int(ps))
	}
	return problems, nil
}

// recordedTally works out again, from the canonical forms a verify reads,
// the counts a build of a stored puzzle records by cell and by property
// (count_breakdown), which one-cell counts, stats by cell, row or column
// and the heat map answer from.
//
// A class with form C has value v at cell x in its member s(C) exactly when
// C has v at s⁻¹(x); as s runs over the 8 symmetries, s⁻¹(x) runs over the
// orbit O of x, 8/|O| times each, and each member is met 8/orbit times. So
// orbit × (cells of O where C has v) / |O| of its members have v at x, and
// the class has such a member when C has v somewhere on O.
type recordedTally struct {
	p       canon.Puzzle
	orbitOf []int   // cell -> its cell orbit's index
	size    []int   // cell orbit -> its cells
	values  int     // values a cell is counted by: n² (magic), 1 (a queen)
	weight  []int64 // the sum over classes of orbit × (cells of the orbit holding the value)
	touched []int64 // classes with the value on the orbit
	full    []int64 // queens: classes with a queen on every cell of the orbit
	seen    []int   // queens: the current form's queens by cell orbit
	props   map[canon.Property][2]int64
}

func newRecordedTally(p canon.Puzzle) *recordedTally {
	n := p.N
	t := &recordedTally{p: p, values: 1, props: map[canon.Property][2]int64{}}
	t.orbitOf, t.size = canon.CellOrbits(n)
	if p.Kind == canon.Magic {
		t.values = n * n
	}
	slots := len(t.size) * t.values
	t.weight = make([]int64, slots)
	t.touched = make([]int64, slots)
	t.full = make([]int64, len(t.size))
	t.seen = make([]int, len(t.size))
	return t
}

// add counts one class: its canonical form, orbit and properties.
func (t *recordedTally) add(form []byte, orbit int, props canon.Property) {
	if t.p.Kind == canon.Queens {
		n := t.p.N
		for r, c := range form {
			k := t.orbitOf[r*n+int(c)]
			t.weight[k] += int64(orbit)
			if t.seen[k]++; t.seen[k] == 1 {
				t.touched[k]++
			}
		}
		for r, c := range form {
			k := t.orbitOf[r*n+int(c)]
			if t.seen[k] == t.size[k] {
				t.full[k]++
			}
			t.seen[k] = 0
		}
		props = canon.SymmetryType(orbit) | canon.QueensBoardProperties(form)
	} else {
		for x, v := range form {
			i := t.orbitOf[x]*t.values + int(v) - 1
			t.weight[i] += int64(orbit)
			t.touched[i]++ // the values of a magic square differ: no class is counted twice
		}
	}
	c := t.props[props]
	t.props[props] = [2]int64{c[0] + int64(orbit), c[1] + 1}
}

// cell is what the build records for value v at cell x (0-based).
func (t *recordedTally) cell(x, v int, rec catalog.Record) catalog.Breakdown {
	n := t.p.N
	k := t.orbitOf[x]
	b := catalog.Breakdown{Stat: catalog.StatCell(x/n+1, x%n+1), Value: v}
	i := k*t.values + max(v, 1) - 1
	b.Solutions = t.weight[i] / int64(t.size[k])
	b.Classes = t.touched[i]
	if t.p.Kind == canon.Queens && v == 0 {
		b.Solutions, b.Classes = rec.Solutions-b.Solutions, rec.Classes-t.full[k]
	}
	return b
}

// check compares the recorded counts with the tally and reports every
// difference, every count missing and every row that names no cell, value
// or property of the puzzle.
func (t *recordedTally) check(ctx context.Context, cat *catalog.Catalog, rec catalog.Record, problem func(string, ...any)) error {
	n := t.p.N
	rows, err := cat.Health().Breakdowns(ctx, rec.Name)
	if err != nil {
		return err
	}
	recorded := map[catalog.Stat]map[int]catalog.Breakdown{}
	for _, r := range rows {
		if r.Unsealed {
			problem("its count recorded by %s, value %d, does not match its seal", r.Stat, r.Value)
		}
		if recorded[r.Stat] == nil {
			recorded[r.Stat] = map[int]catalog.Breakdown{}
		}
		recorded[r.Stat][r.Value] = r
	}
	for x := 0; x < n*n; x++ {
		stat := catalog.StatCell(x/n+1, x%n+1)
		for _, v := range CellValues(t.p) {
			want := t.cell(x, v, rec)
			got, ok := recorded[stat][v]
			switch {
			case !ok:
				problem("recorded counts by %s: value %d is missing (the classes give %d solutions, %d classes)", stat, v, want.Solutions, want.Classes)
			case got.Solutions != want.Solutions || got.Classes != want.Classes:
				problem("recorded counts by %s, value %d: %d solutions, %d classes; the classes give %d and %d", stat, v, got.Solutions, got.Classes, want.Solutions, want.Classes)
			}
			delete(recorded[stat], v)
		}
		for v := range recorded[stat] {
			problem("recorded counts by %s: value %d is not a value of %s", stat, v, t.p)
		}
		delete(recorded, stat)
	}
	// A queens build records the board properties' counts (both), or an
	// older one neither.
	_, boardRecorded := recorded[catalog.StatProps][int(canon.Toroidal)]
	if _, ok := recorded[catalog.StatProps][int(canon.Superqueen)]; ok {
		boardRecorded = true
	}
	for _, prop := range recordedProps(t.p) {
		var solutions, classes int64
		for props, c := range t.props {
			if props&prop == prop {
				solutions, classes = solutions+c[0], classes+c[1]
			}
		}
		got, ok := recorded[catalog.StatProps][int(prop)]
		switch {
		case !ok && prop.Board() == prop && !boardRecorded:
			// Built by a solcat that did not record the board properties:
			// their counts are made by a scan.
		case !ok:
			problem("recorded counts of %s are missing (the classes give %d solutions, %d classes)", prop, solutions, classes)
		case got.Solutions != solutions || got.Classes != classes:
			problem("recorded counts of %s: %d solutions, %d classes; the classes give %d and %d", prop, got.Solutions, got.Classes, solutions, classes)
		}
		delete(recorded[catalog.StatProps], int(prop))
	}
	for v := range recorded[catalog.StatProps] {
		problem("recorded counts by properties: %d is not a set of properties counted for %s", v, t.p)
	}
	delete(recorded, catalog.StatProps)
	for stat := range recorded {
		problem("recorded counts by %s: not a cell of %s or another statistic solcat records", stat, t.p)
	}
	return nil
}

// CellValues are the values a cell's recorded counts have a row for:
// queens 0 (no queen) and 1, magic squares 1 to n².
func CellValues(p canon.Puzzle) []int {
	if p.Kind == canon.Queens {
		return []int{0, 1}
	}
	var out []int
	for v := 1; v <= p.N*p.N; v++ {
		out = append(out, v)
	}
	return out
}

// recordedProps are the property sets the build of a puzzle stored as its
// classes records counts of.
func recordedProps(p canon.Puzzle) []canon.Property {
	if p.Kind == canon.Queens {
		return []canon.Property{canon.Rot90Symmetric, canon.Rot180Only, canon.Asymmetric, canon.Toroidal, canon.Superqueen}
	}
	return []canon.Property{canon.Pandiagonal, canon.Associative, canon.Associative | canon.Pandiagonal, canon.SelfComplementary}
}
