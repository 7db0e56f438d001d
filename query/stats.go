package query

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strconv"
	"strings"

	"solcat/canon"
	"solcat/catalog"
)

// StatsKind is what a distribution is taken over. The zero StatsKind is
// none chosen.
type StatsKind int

const (
	ByCell    StatsKind = iota + 1 // the value of one cell (magic squares: 1..n²; queens: 1 for a queen, 0 for an empty square)
	ByRow                          // queens: the column of the queen in one row
	ByCol                          // queens: the row of the queen in one column
	ByOrbit                        // the orbit size
	ByProp                         // whether a property holds: 1 or 0
	ByGroup                        // magic:4: the Dudeney group, 1 to 12
	ByHeatmap                      // every cell by its values at once (Heatmap); ParseStatsBy reads "cell" for it
)

var statsKindNames = map[StatsKind]string{ByCell: "cell", ByRow: "row", ByCol: "col", ByOrbit: "orbit", ByProp: "prop", ByGroup: "group", ByHeatmap: "heatmap"}

func (k StatsKind) String() string { return statsKindNames[k] }

// StatsBy is a statistic: what a distribution is taken over, and the cell
// (ByCell), the row (ByRow), the column (ByCol) or the property (ByProp)
// it is taken of.
type StatsBy struct {
	Kind     StatsKind
	Row, Col int // 1-based
	Prop     canon.Property
}

// ParseStatsBy reads "cell:R,C", "row:R", "col:C", "orbit", "prop:NAME" or
// "group".
func ParseStatsBy(p canon.Puzzle, text string) (StatsBy, error) {
	what, arg, _ := strings.Cut(text, ":")
	bad := badFilter("by", strconv.Quote(text), "use cell (every cell, as a grid), cell:R,C, row:R or col:C (queens), orbit, prop:NAME or group (magic:4)")
	switch what {
	case "orbit", "group":
		if arg != "" {
			return StatsBy{}, bad
		}
		if what == "group" && (p.Kind != canon.Magic || p.N != 4) {
			return StatsBy{}, badFilter("by", "group", "Dudeney groups are defined for magic:4 only")
		}
		if what == "group" {
			return StatsBy{Kind: ByGroup}, nil
		}
		return StatsBy{Kind: ByOrbit}, nil
	case "prop":
		prop, ok := canon.ParseProperty(p.Kind, arg)
		if !ok && arg == "" {
			return StatsBy{}, badFilter("by", strconv.Quote(text), "name the property: write prop:NAME, NAME one of %s", strings.Join(canon.PropertyNames(p.Kind), ", "))
		}
		if !ok {
			return StatsBy{}, badFilter("by", strconv.Quote(text), "no property %q for %s; choose from %s", arg, p.Kind, strings.Join(canon.PropertyNames(p.Kind), ", "))
		}
		return StatsBy{Kind: ByProp, Prop: prop}, nil
	case "cell":
		if arg == "" && !strings.Contains(text, ":") {
			return StatsBy{Kind: ByHeatmap}, nil // every cell at once: the heat map
		}
		c, err := parseCell(arg + "=1")
		if err != nil {
			return StatsBy{}, bad
		}
		if c.Row < 1 || c.Row > p.N || c.Col < 1 || c.Col > p.N {
			return StatsBy{}, badFilter("by", strconv.Quote(text), "%s has rows and columns 1 to %d", p, p.N)
		}
		return StatsBy{Kind: ByCell, Row: c.Row, Col: c.Col}, nil
	case "row":
		r, err := strconv.Atoi(arg)
		if err != nil || p.Kind != canon.Queens {
			return StatsBy{}, bad
		}
		if r < 1 || r > p.N {
			return StatsBy{}, badFilter("by", strconv.Quote(text), "%s has rows 1 to %d", p, p.N)
		}
		return StatsBy{Kind: ByRow, Row: r}, nil
	case "col":
		c, err := strconv.Atoi(arg)
		if err != nil || p.Kind != canon.Queens {
			return StatsBy{}, bad
		}
		if c < 1 || c > p.N {
			return StatsBy{}, badFilter("by", strconv.Quote(text), "%s has columns 1 to %d", p, p.N)
		}
		return StatsBy{Kind: ByCol, Col: c}, nil
	}
	return StatsBy{}, bad
}

// StatsRow is one value of a distribution.
type StatsRow struct {
	Value     int     `json:"value"`
	Label     string  `json:"label,omitempty"` // group: its numeral; prop: "yes" or "no"
	Solutions int64   `json:"solutions"`
	Classes   int64   `json:"classes"` // classes with at least one such solution; -1: not counted (a constrained count)
	Share     float64 `json:"share"`   // of the matching solutions
}

// Stats computes a distribution over the solutions that match a planned
// question. Scanning, it reads the classes only: member s(C) of a class
// with canonical form C holds at a cell what C holds at the cell that s
// carries there.
func (t *BoundPuzzle) Stats(ctx context.Context, p *Plan) ([]StatsRow, error) {
	f, by := p.Question.Filter, p.Question.By
	switch p.Way {
	case ProvedEmpty:
		return nil, nil
	case ConstrainedCount:
		return t.statsConstrained(ctx, p)
	case BlockScan:
		if blockHistogram(p.Question) {
			return t.statsByBlocks(ctx, p)
		}
		return t.statsStored(ctx, p)
	case FromRecord, FromBreakdown:
		return t.statsFromRecord(ctx, p)
	}
	mv := newMemberValues(t.Puzzle, by)
	if m, ok := t.packedCountable(p); ok && by.Kind != ByProp && by.Kind != ByGroup {
		return t.statsPacked(ctx, p, &m, mv)
	}
	unfiltered := !slices.ContainsFunc(p.imageConds[:], func(c []byteCondition) bool { return len(c) > 0 })
	// One range of class IDs per worker, each with its own tallies (on a
	// cache line of its own), added up at the end.
	type partial struct {
		solutions, classes [64]int64 // solutions × 8, classes; by value
		inv                []byte
		_                  [64]byte
	}
	parts := make([]partial, max(p.Workers, 1))
	err := t.eachClassSplit(ctx, p, p.Classes.Lo, p.Classes.Hi, len(parts), func(w int, c catalog.ClassRow) error {
		part := &parts[w]
		form, orbit, props := c.Form, int64(c.Orbit), canon.Property(c.Props)
		if t.Puzzle.Kind == canon.Queens {
			props |= canon.QueensProperties(form, int(orbit))
		}
		anyImage := f.UpToSymmetry && slices.ContainsFunc(p.imageConds[:], func(c []byteCondition) bool { return meets(form, c) })
		part.inv = mv.inverse(form, part.inv)
		vals := mv.values(form, part.inv, orbit, props)
		var seen uint64 // the values this class has counted already
		for k, v := range vals {
			if !anyImage && !unfiltered && !meets(form, p.imageConds[k]) {
				continue
			}
			part.solutions[v] += orbit
			seen |= 1 << v
		}
		for ; seen != 0; seen &= seen - 1 {
			part.classes[bits.TrailingZeros64(seen)]++
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	acc := map[int][2]int64{}
	for v := range 64 {
		var a [2]int64
		for _, part := range parts {
			a[0] += part.solutions[v]
			a[1] += part.classes[v]
		}
		if a[0] > 0 {
			a[0] /= 8 // each member was met once for each of the 8/orbit symmetries that give it
			acc[v] = a
		}
	}
	return finishStats(acc, by), nil
}

// statsPacked takes a distribution over a puzzle stored as its classes
// from its packed forms: the forms are compared with the filter's
// conditions pulled back through each symmetry as a count compares them
// (skipping the groups of blocks no symmetry can meet, comparing only the
// lanes that can), and only the forms that meet some are unpacked, their
// matching members' values read off them.
func (t *BoundPuzzle) statsPacked(ctx context.Context, p *Plan, m *packedMatch, mv *memberValues) ([]StatsRow, error) {
	ids, orbits, err := t.store.SmallOrbits(ctx)
	if err != nil {
		return nil, err
	}
	queens, size := t.Puzzle.Kind == canon.Queens, t.store.PackedFormSize()
	lo, hi := p.Classes.Lo, p.Classes.Hi
	type partial struct {
		solutions, classes [64]int64 // solutions × 8, classes; by value
		hits               []uint32
		cells, inv         []byte
		next               int // the next class with fewer than 8 members, in ids
		_                  [64]byte
	}
	parts := make([]partial, max(p.Workers, 1))
	for w := range parts {
		parts[w].cells, parts[w].inv = apart(t.Puzzle.Len()), apart(t.Puzzle.Len())[:0]
	}
	q := catalog.ClassBlockScan{Lo: lo, Hi: hi, Workers: len(parts),
		Select: func(_ int, g *catalog.ClassGroup) uint32 { return uint32(m.lanesFor(g)) }}
	_, err = t.store.ScanClassBlocks(ctx, q, func(w int, first int64, forms []byte, tag uint32) error {
		part := &parts[w]
		k0 := max(lo-first, 0)
		end := min(int64(len(forms)/size), hi-first+1)
		if k0 >= end {
			return nil
		}
		part.hits = m.hitList(forms[k0*int64(size):end*int64(size)], size, uint64(tag)&m.allLanes(), part.hits)
		// The goroutine's blocks come in ID order, with jumps between
		// pieces of the range: find the next small orbit from here.
		if i := part.next; i > 0 && ids[i-1] >= first || i < len(ids) && ids[i] < first {
			part.next = sort.Search(len(ids), func(j int) bool { return ids[j] >= first })
		}
		for _, h := range part.hits {
			k := k0 + int64(h>>8)
			id := first + k
			for part.next < len(ids) && ids[part.next] < id {
				part.next++
			}
			orbit := int64(8)
			if part.next < len(ids) && ids[part.next] == id {
				orbit = int64(orbits[part.next])
			}
			var syms uint8
			for l := h & 0xff; l != 0; l &= l - 1 {
				syms |= m.of[bits.TrailingZeros32(l)]
			}
			if p.Question.Filter.UpToSymmetry {
				syms = 0xff // a class that matches has all its members match
			}
			form := forms[k*int64(size) : (k+1)*int64(size)]
			var props canon.Property
			if queens {
				canon.UnpackQueens(form, part.cells)
				if mv.by.Kind == ByProp {
					// Read off the squares: a tenth of a row breakdown's time if done for it too.
					props = canon.QueensProperties(part.cells, int(orbit))
				}
			} else {
				key, _ := canon.Packed25From(form)
				canon.Unpack25(key, (*[25]byte)(part.cells))
			}
			if syms&mv.fromColumns != 0 {
				part.inv = mv.inverse(part.cells, part.inv)
			}
			vals := mv.values(part.cells, part.inv, orbit, props)
			var seen uint64
			for ; syms != 0; syms &= syms - 1 {
				v := vals[bits.TrailingZeros8(syms)]
				part.solutions[v] += orbit
				seen |= 1 << v
			}
			for ; seen != 0; seen &= seen - 1 {
				part.classes[bits.TrailingZeros64(seen)]++
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	acc := map[int][2]int64{}
	for v := range 64 {
		var a [2]int64
		for _, part := range parts {
			a[0] += part.solutions[v]
			a[1] += part.classes[v]
		}
		if a[0] > 0 {
			a[0] /= 8 // each member was met once for each of the 8/orbit symmetries that give it
			acc[v] = a
		}
	}
	return finishStats(acc, p.Question.By), nil
}

// memberValues reads a statistic of each member s(C) of a class off its
// canonical form C: member s(C) holds at a cell what C holds at the cell
// that s carries there, so each symmetry's source, a cell or a line of C,
// is worked out once.
type memberValues struct {
	by      StatsBy
	n       int
	queens  bool
	cell    [8]int  // by a cell: the cell of C that symmetry k carries there
	fromRow [8]bool // by a row or a column: the line's queen lies in a row of C (else a column)
	line    [8]int  // that row or column of C
	// fromColumns is the symmetries (a bit each) whose line comes from a
	// column of C, which the inverse permutation reads
	fromColumns uint8
	sym         [8]canon.Symmetry
}

func newMemberValues(p canon.Puzzle, by StatsBy) *memberValues {
	mv := &memberValues{by: by, n: p.N, queens: p.Kind == canon.Queens}
	n := p.N
	for k, s := range canon.All {
		mv.sym[k] = s
		inv := s.Inverse()
		r, c := inv.Map(n, max(by.Row-1, 0), max(by.Col-1, 0))
		mv.cell[k] = r*n + c
		// Two cells of the asked line, carried back: a row of C if they
		// share a row.
		var r0, c0, r1, c1 int
		if by.Kind == ByRow {
			r0, c0 = inv.Map(n, by.Row-1, 0)
			r1, c1 = inv.Map(n, by.Row-1, min(1, n-1))
		} else {
			r0, c0 = inv.Map(n, 0, max(by.Col-1, 0))
			r1, c1 = inv.Map(n, min(1, n-1), max(by.Col-1, 0))
		}
		mv.fromRow[k] = r0 == r1 && (c0 != c1 || n == 1)
		mv.line[k] = r0
		if !mv.fromRow[k] {
			mv.line[k] = c0
			mv.fromColumns |= 1 << k
		}
	}
	return mv
}

// inverse is C's inverse permutation (the row of each column's queen),
// when the statistic needs it: a queens row or column that some symmetry
// carries from a column.
func (mv *memberValues) inverse(form, dst []byte) []byte {
	if !mv.queens || mv.by.Kind != ByRow && mv.by.Kind != ByCol {
		return dst
	}
	dst = growBytes(dst, len(form))
	for r, c := range form {
		if int(c) < len(dst) {
			dst[c] = byte(r)
		}
	}
	return dst
}

// values is the statistic of each member s(C) (s = canon.All[k]) of the
// class with canonical form form (inv its inverse, if needed), orbit size
// and properties, all 8 in one call.
func (mv *memberValues) values(form, inv []byte, orbit int64, props canon.Property) (vals [8]int) {
	by := mv.by
	switch by.Kind {
	case ByOrbit, ByGroup, ByProp:
		v := int(orbit)
		switch {
		case by.Kind == ByGroup:
			v = props.DudeneyOf()
		case by.Kind == ByProp && props&by.Prop != 0:
			v = 1
		case by.Kind == ByProp:
			v = 0
		}
		for k := range vals {
			vals[k] = v
		}
	case ByRow, ByCol:
		// The queen of the asked line of s(C) is the queen of C's source line.
		for k := range vals {
			r, c := mv.line[k], 0
			switch {
			case mv.fromRow[k]:
				c = int(form[r])
			case len(inv) == 0:
				continue // not asked for: inverse was not made
			default:
				c, r = r, int(inv[r])
			}
			r2, c2 := mv.sym[k].Map(mv.n, r, c)
			vals[k] = r2 + 1
			if by.Kind == ByRow {
				vals[k] = c2 + 1
			}
		}
	default:
		for k, at := range mv.cell {
			switch {
			case !mv.queens:
				vals[k] = int(form[at])
			case int(form[at/mv.n]) == at%mv.n:
				vals[k] = 1
			}
		}
	}
	return vals
}

// apart makes a buffer of n bytes for one goroutine, on cache lines of
// its own: small buffers of two goroutines side by side would share a
// line, and each write would take it from the other core (a breakdown of
// queens:19 spent half its time so).
func apart(n int) []byte { return make([]byte, n+128)[64 : 64+n : 64+n] }

func growBytes(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}

// blockHistogram reports whether a question is a distribution that
// statsByBlocks takes: by a row, a column or a cell, under a filter of
// cells only.
func blockHistogram(q Question) bool {
	f := q.Filter
	k := q.By.Kind
	return q.Ask == AskStats && (k == ByRow || k == ByCol || k == ByCell) && f.Class == 0 && f.Orbit == 0 && f.Props == 0 && !f.UpToSymmetry
}

// statsByBlocks takes a distribution by a row, a column or a cell of a
// puzzle stored solution by solution from its blocks alone: for each
// block that may match, the solutions that meet the filter's cells
// (compared 8 at a time), their values at the cell asked (one column; a
// queens column asks the column of every row), and their classes, a bit
// per class and value. The blocks are shared out among the plan's
// workers, each with a histogram and class bits of its own.
func (t *BoundPuzzle) statsByBlocks(ctx context.Context, p *Plan) ([]StatsRow, error) {
	by, n, conds := p.Question.By, t.Puzzle.N, p.rest
	values := n + 1 // queens by a row or a column: 1 to n
	var statCells []int
	switch {
	case by.Kind == ByRow:
		statCells = []int{by.Row - 1}
	case by.Kind == ByCol:
		for r := range n {
			statCells = append(statCells, r)
		}
	case t.Puzzle.Kind == canon.Queens: // a cell: 1 for a queen there, 0 for none
		statCells, values = []int{by.Row - 1}, 2
	default: // a magic square's cell: its value
		statCells, values = []int{(by.Row-1)*n + by.Col - 1}, n*n+1
	}
	workers := max(p.Workers, 1)
	type partial struct {
		hist    []int64
		classes [][]uint64 // per value, a bit per class (made when the value is first met)
		masks   []uint64
		vals    []byte // by a column: each solution's value, of the block at hand
		_       [64]byte
	}
	words := t.Record.Classes/64 + 1
	parts := make([]partial, workers)
	for w := range parts {
		parts[w] = partial{hist: make([]int64, values), classes: make([][]uint64, values), masks: make([]uint64, maxBlockWords), vals: make([]byte, catalog.MaxBlockSolutions)}
	}
	cells := conditionCells(conds)
	for _, c := range statCells {
		if !slices.Contains(cells, c) {
			cells = append(cells, c)
		}
	}
	lo, hi := p.IDs.Lo, p.IDs.Hi
	q := catalog.BlockScan{Lo: lo, Hi: hi, Cells: cells, Classes: true, Workers: workers,
		Select: func(_ int, b *catalog.Block) bool { return mayMatch(b, conds) }}
	_, err := t.store.ScanBlocks(ctx, q, func(w int, b *catalog.Block) error {
		part := &parts[w]
		nw := matchBlock(b, conds, lo, hi, part.masks)
		stat := b.Column(statCells[0])
		if by.Kind == ByCol {
			// Each solution's value: the row whose queen is in the column,
			// 8 solutions a word (a row's queen is rarely there).
			stat = part.vals[:b.N]
			clear(stat) // 0: no queen in the column (damaged)
			for r := range n {
				col := b.Column(r)
				for j := 0; j < len(col); j += 8 {
					var w [8]byte
					copy(w[:], col[j:])
					for eq := equalLanes(binary.LittleEndian.Uint64(w[:]), byte(by.Col-1)); eq != 0; eq &= eq - 1 {
						if k := j + bits.TrailingZeros64(eq)/8; k < len(col) {
							stat[k] = byte(r + 1)
						}
					}
				}
			}
		}
		for j, m := range part.masks[:nw] {
			for m != 0 {
				k := 8*j + bits.TrailingZeros64(m)/8
				m &= m - 1
				v := int(stat[k])
				switch {
				case by.Kind == ByRow:
					v++ // the 1-based column
				case by.Kind == ByCell && t.Puzzle.Kind == canon.Queens:
					v = int(b2u8(v == by.Col-1))
				}
				class, ok := b.ClassOf(k)
				if v >= values || !ok || class < 1 || class > t.Record.Classes {
					continue // damaged: verify names it
				}
				part.hist[v]++
				set := part.classes[v]
				if set == nil {
					set = make([]uint64, words)
					part.classes[v] = set
				}
				set[class/64] |= 1 << (class % 64)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	acc := map[int][2]int64{}
	for v := range values {
		var solutions, count int64
		for _, part := range parts {
			solutions += part.hist[v]
		}
		if solutions == 0 {
			continue
		}
		for i := range words {
			var word uint64
			for _, part := range parts {
				if part.classes[v] != nil {
					word |= part.classes[v][i]
				}
			}
			count += int64(bits.OnesCount64(word))
		}
		acc[v] = [2]int64{solutions, count}
	}
	return finishStats(acc, by), nil
}

// b2u8 is 1 for true, 0 for false.
func b2u8(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// statsStored reads the statistic off the stored solutions of the plan's
// range of IDs that match.
func (t *BoundPuzzle) statsStored(ctx context.Context, p *Plan) ([]StatsRow, error) {
	sc, err := t.newBlockScan(ctx, p)
	if err != nil {
		return nil, err
	}
	by, n := p.Question.By, t.Puzzle.N
	at := max(by.Row-1, 0)*n + max(by.Col-1, 0)
	images := canon.NewImages(t.Puzzle)
	acc := map[int][2]int64{}
	var pairs [][2]int64 // (value, class) of each solution: a class counts once a value
	err = sc.run(ctx, p.IDs.Lo, p.IDs.Hi, 1, func(_ int, s catalog.StoredSolution, c classInfo) error {
		if c.orbit == 0 && (by.Kind == ByOrbit || by.Kind == ByProp) {
			c = sc.class(s, images) // a queens solution's orbit, from its images: only when asked for
		}
		props := c.props
		if t.Puzzle.Kind == canon.Queens {
			props |= canon.SymmetryType(c.orbit)
		}
		class, _, err := s.Class()
		if err != nil {
			return err
		}
		v := t.statValue(by, canon.Identity, s.Cells, at, int64(c.orbit), props)
		a := acc[v]
		a[0]++
		acc[v] = a
		pairs = append(pairs, [2]int64{int64(v), class})
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(pairs, func(x, y [2]int64) int { return cmp.Or(cmp.Compare(x[0], y[0]), cmp.Compare(x[1], y[1])) })
	for i, pair := range pairs {
		if i == 0 || pair != pairs[i-1] {
			a := acc[int(pair[0])]
			a[1]++
			acc[int(pair[0])] = a
		}
	}
	return finishStats(acc, by), nil
}

// statsFromRecord answers from the record and the recorded breakdowns.
func (t *BoundPuzzle) statsFromRecord(ctx context.Context, p *Plan) ([]StatsRow, error) {
	by := p.Question.By
	acc := map[int][2]int64{}
	switch {
	case p.Way == FromRecord: // by orbit
		for _, orbit := range []int{1, 2, 4, 8} {
			classes := t.Record.Orbits[orbit]
			acc[orbit] = [2]int64{int64(orbit) * classes, classes}
		}
	case p.Stat == catalog.StatProps:
		// The counts of the property: the rest lack it.
		recorded, err := t.cat.Breakdown(ctx, t.Record.Name, p.Stat)
		if err != nil {
			return nil, err
		}
		i := slices.IndexFunc(recorded, func(r catalog.Breakdown) bool { return canon.Property(r.Value) == by.Prop })
		if i < 0 {
			return nil, fmt.Errorf("%s: no recorded count of %s", t.Puzzle, by.Prop)
		}
		r := recorded[i]
		acc[1] = [2]int64{r.Solutions, r.Classes}
		acc[0] = [2]int64{t.Record.Solutions - r.Solutions, t.Record.Classes - r.Classes}
	case by.Kind == ByRow: // the queen's column: a queen in each cell of the row
		for col := 1; col <= t.Puzzle.N; col++ {
			recorded, err := t.recordedCell(ctx, by.Row, col)
			if err != nil {
				return nil, err
			}
			acc[col] = [2]int64{recorded[1].Solutions, recorded[1].Classes}
		}
	case by.Kind == ByCol: // the queen's row: a queen in each cell of the column
		for row := 1; row <= t.Puzzle.N; row++ {
			recorded, err := t.recordedCell(ctx, row, by.Col)
			if err != nil {
				return nil, err
			}
			acc[row] = [2]int64{recorded[1].Solutions, recorded[1].Classes}
		}
	default: // by a cell
		recorded, err := t.recordedCell(ctx, by.Row, by.Col)
		if err != nil {
			return nil, err
		}
		for _, r := range recorded {
			acc[r.Value] = [2]int64{r.Solutions, r.Classes}
		}
	}
	return finishStats(acc, by), nil
}

// statValue is the statistic of member s(C).
func (t *BoundPuzzle) statValue(by StatsBy, s canon.Symmetry, form []byte, at int, orbit int64, props canon.Property) int {
	n := t.Puzzle.N
	switch {
	case by.Kind == ByOrbit:
		return int(orbit)
	case by.Kind == ByGroup:
		return props.DudeneyOf()
	case by.Kind == ByProp:
		if props&by.Prop != 0 {
			return 1
		}
		return 0
	case by.Kind == ByRow:
		// The queen of row R in s(C) comes from the queen of C that s moves there.
		for r, c := range form {
			if r2, c2 := s.Map(n, r, int(c)); r2 == by.Row-1 {
				return c2 + 1
			}
		}
	case by.Kind == ByCol:
		for r, c := range form {
			if r2, c2 := s.Map(n, r, int(c)); c2 == by.Col-1 {
				return r2 + 1
			}
		}
	case t.Puzzle.Kind == canon.Queens:
		if int(form[at/n]) == at%n {
			return 1
		}
		return 0
	}
	return int(form[at])
}

func finishStats(acc map[int][2]int64, by StatsBy) []StatsRow {
	var total int64
	var out []StatsRow
	for v, a := range acc {
		if a[0] == 0 {
			continue
		}
		total += a[0]
		row := StatsRow{Value: v, Solutions: a[0], Classes: a[1]}
		switch by.Kind {
		case ByGroup:
			row.Label = canon.DudeneyNumeral(v)
		case ByProp:
			row.Label = map[int]string{0: "no", 1: "yes"}[v]
		}
		out = append(out, row)
	}
	slices.SortFunc(out, func(a, b StatsRow) int { return a.Value - b.Value })
	for i := range out {
		out[i].Share = math.Round(1e6*float64(out[i].Solutions)/float64(total)) / 1e6 // shares to a millionth

	}
	return out
}

// Heatmap counts, over the solutions that match a planned question (by
// ByHeatmap), how many hold each value in each cell: counts[cell][v], the
// cell row by row; for queens v is 1 for a queen (and counts[cell][0] is 0).
// From recorded breakdowns where the build recorded every cell, else by
// one scan of the classes.
func (t *BoundPuzzle) Heatmap(ctx context.Context, p *Plan) ([][]int64, error) {
	n := t.Puzzle.N
	values := n*n + 1
	if t.Puzzle.Kind == canon.Queens {
		values = 2
	}
	counts := make([][]int64, n*n)
	for i := range counts {
		counts[i] = make([]int64, values)
	}
	if p.Way == FromBreakdown {
		for x := range counts {
			rows, err := t.recordedCell(ctx, x/n+1, x%n+1)
			if err != nil {
				return nil, err
			}
			for _, r := range rows {
				if r.Value >= 0 && r.Value < values && (r.Value > 0 || t.Puzzle.Kind == canon.Magic) { // queens: the queens only
					counts[x][r.Value] = r.Solutions
				}
			}
		}
		return counts, nil
	}
	f := p.Question.Filter
	partial := make([][][]int64, max(p.Workers, 1)) // per worker, counts × 8
	for w := range partial {
		partial[w] = make([][]int64, n*n)
		for i := range partial[w] {
			partial[w][i] = make([]int64, values)
		}
	}
	err := t.eachClassSplit(ctx, p, p.Classes.Lo, p.Classes.Hi, len(partial), func(w int, c catalog.ClassRow) error {
		acc, form, orbit := partial[w], c.Form, int64(c.Orbit)
		anyImage := f.UpToSymmetry && slices.ContainsFunc(p.imageConds[:], func(c []byteCondition) bool { return meets(form, c) })
		for k, s := range canon.All {
			if !anyImage && !meets(form, p.imageConds[k]) {
				continue
			}
			// Member s(C) holds at cell s(y) what C holds at y.
			if t.Puzzle.Kind == canon.Queens {
				for r, col := range form {
					r2, c2 := s.Map(n, r, int(col))
					acc[r2*n+c2][1] += orbit
				}
				continue
			}
			for y, v := range form {
				r2, c2 := s.Map(n, y/n, y%n)
				acc[r2*n+c2][v] += orbit
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, part := range partial {
		for x := range counts {
			for v := range counts[x] {
				counts[x][v] += part[x][v]
			}
		}
	}
	for x := range counts {
		for v := range counts[x] {
			counts[x][v] /= 8 // each member was met once for each of the 8/orbit symmetries that give it
		}
	}
	return counts, nil
}
