package web

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/cmd/solcat/release"
	"solcat/query"
	"solcat/query/draw"
	"solcat/query/records"
	"solcat/query/verify"
)

// puzzleRow is one puzzle on the catalog page.
type puzzleRow struct {
	catalog.Record
	Matches bool
	Hash    string // the first 16 hex digits
	Link    string
}

type catalogData struct {
	Path     string
	Puzzles  []puzzleRow
	Building []string // unfinished builds, said in words
}

func (s *Server) catalogPage(r *request) (*page, error) {
	if _, err := params(r.Request, catalogParams, canon.Puzzle{}); err != nil {
		return nil, err
	}
	recs, err := s.cat.Puzzles(r.ctx)
	if err != nil {
		return nil, err
	}
	d := catalogData{Path: filepath.Base(s.path)} // the file's name: where it lives is not the visitor's business
	var objs []records.Object
	for _, rec := range recs {
		row := puzzleRow{Record: rec, Matches: verify.MatchesPublished(rec), Hash: rec.ContentHash[:min(16, len(rec.ContentHash))], Link: "/puzzle/" + rec.Name}
		d.Puzzles = append(d.Puzzles, row)
		objs = append(objs, records.RecordObject(rec)) // as info shows it
	}
	underway, err := s.builds.UnderWay(r.ctx)
	if err != nil {
		return nil, err
	}
	for _, u := range underway {
		d.Building = append(d.Building, u.Line)
		objs = append(objs, u.JSON)
	}
	if objs == nil {
		objs = []records.Object{}
	}
	return &page{Template: "catalog.html", Title: "solcat catalog", Data: d, JSON: objs}, nil
}

// form is the puzzle page's filter, as the query string has it, and what
// the form shows of it.
type form struct {
	q       url.Values
	Text    query.FilterText
	Board   [][]boardCell // queens: a radio a square; magic: a number box a cell
	Queens  bool
	Pattern string
	Props   []propBox
	Orbit   int
	Sym     bool
	Classes bool // list classes, not solutions
	Page    int64
	Size    int64
}

type boardCell struct {
	Name, Value string
	Checked     bool // queens: the queen of this row stands here
	Any         bool // queens: the row's "no queen fixed" choice
}

type propBox struct {
	Name    string
	Checked bool
}

// readForm reads the filter of a puzzle page from its query string (as
// params checked it): board squares (queens: rowR = the queen's column;
// magic: rRcC = the value; or their older names), cell, pattern, prop,
// orbit, sym, class, view, page, size. The form names the squares anew.
func readForm(p canon.Puzzle, q url.Values) (form, error) {
	sym, err := choice(q, "sym", "on")
	if err != nil {
		return form{}, err
	}
	view, err := choice(q, "view", "classes")
	if err != nil {
		return form{}, err
	}
	f := form{q: q, Queens: p.Kind == canon.Queens, Pattern: q.Get("pattern"), Sym: sym != "", Classes: view == "classes", Page: 1, Size: DefaultPageSize}
	f.Text = query.FilterText{Cells: q["cell"], Pattern: f.Pattern, UpToSymmetry: f.Sym, Props: q["prop"]}
	number := func(name string, dst *int64, lo, hi int64) error {
		v := q.Get(name)
		if v == "" {
			return nil
		}
		n, err := strconv.ParseInt(v, 10, 64)
		switch {
		case (err != nil || n < lo) && hi >= 1<<40: // no bound worth naming
			return errorf(http.StatusBadRequest, "%s %q: give a whole number from %d", name, v, lo)
		case err != nil || n < lo || n > hi:
			return errorf(http.StatusBadRequest, "%s %q: give a whole number from %d to %d", name, v, lo, hi)
		}
		*dst = n
		return nil
	}
	var orbit, class int64
	if err := number("orbit", &orbit, 1, 8); err != nil {
		return f, err
	}
	if err := number("class", &class, 1, 1<<62); err != nil {
		return f, err
	}
	if orbit != 0 {
		o := int(orbit)
		f.Orbit, f.Text.Orbit = o, &o
	}
	if class != 0 {
		f.Text.Class = &class
	}
	if err := number("page", &f.Page, 1, 1<<40); err != nil {
		return f, err
	}
	if err := number("size", &f.Size, 1, MaxPageSize); err != nil {
		return f, err
	}
	n := p.N
	given := map[[2]int]string{} // a square's value, by whichever of its names
	for name, values := range q {
		if r, c, ok := canon.ParseCellName(p.Kind, name); ok {
			given[[2]int{r, c}] = values[0]
		}
	}
	for r := 1; r <= n; r++ {
		var row []boardCell
		if f.Queens {
			name := canon.CellName(p, r-1)
			chosen := given[[2]int{r, 0}]
			if chosen != "" {
				f.Text.Cells = append(f.Text.Cells, fmt.Sprintf("%d,%s=1", r, chosen))
			}
			for c := 1; c <= n; c++ {
				row = append(row, boardCell{Name: name, Value: strconv.Itoa(c), Checked: chosen == strconv.Itoa(c)})
			}
			row = append(row, boardCell{Name: name, Value: "", Checked: chosen == "", Any: true})
		} else {
			for c := 1; c <= n; c++ {
				name := canon.CellName(p, (r-1)*n+c-1)
				v := given[[2]int{r, c}]
				if v != "" {
					f.Text.Cells = append(f.Text.Cells, fmt.Sprintf("%d,%d=%s", r, c, v))
				}
				row = append(row, boardCell{Name: name, Value: v})
			}
		}
		f.Board = append(f.Board, row)
	}
	for _, name := range canon.PropertyNames(p.Kind) {
		if prop, _ := canon.ParseProperty(p.Kind, name); prop.DudeneyOf() != 0 && n != 4 {
			continue
		}
		f.Props = append(f.Props, propBox{name, slices.Contains(q["prop"], name)})
	}
	return f, nil
}

// item is one drawn solution or class of a list.
type item struct {
	ID      int64
	Link    string
	SVG     string
	Caption string
}

type puzzleData struct {
	Puzzle   string
	Rec      catalog.Record
	Form     form
	Filter   string
	Count    int64
	Counted  bool
	CountURL string // a scan too long to run unasked: the link that runs it
	Kept     bool   // the count was worked out by an earlier page
	Of       string
	Plan     query.PlanReport
	Elapsed  string
	Items    []item
	Prev     string
	Next     string
	Links    map[string]string
	First    int64
	Constant int // magic squares: the magic constant
	OEIS     canon.Sequences
}

// filtered binds the request's puzzle and reads its parameters (those of
// a page of kind pp) and its filter form.
func (s *Server) filtered(r *request, pp pageParams) (*query.BoundPuzzle, form, query.Filter, error) {
	t, err := s.target(r)
	if err != nil {
		return nil, form{}, query.Filter{}, err
	}
	q, err := params(r.Request, pp, t.Puzzle)
	if err != nil {
		return nil, form{}, query.Filter{}, err
	}
	f, err := readForm(t.Puzzle, q)
	if err != nil {
		return nil, form{}, query.Filter{}, err
	}
	filter, err := query.ParseFilter(t.Puzzle, f.Text)
	return t, f, filter, err
}

func (s *Server) puzzlePage(r *request) (*page, error) {
	t, f, filter, err := s.filtered(r, puzzleParams)
	if err != nil {
		return nil, err
	}
	if _, err := choice(f.q, "count", "1"); err != nil {
		return nil, err
	}
	base := "/puzzle/" + t.Puzzle.String()
	d := puzzleData{Puzzle: t.Puzzle.String(), Rec: t.Record, Form: f, Filter: filter.String(t.Puzzle), Of: "solutions", Constant: magicConstant(t.Puzzle),
		OEIS: canon.OEIS(t.Puzzle.Kind),
		Links: map[string]string{
			"csv": base + "/export/rows.csv" + with(f.q, "page", "", "size", "", "count", ""), "jsonl": base + "/export/rows.jsonl" + with(f.q, "page", "", "size", "", "count", ""),
			"parquet": base + "/export/rows.parquet" + with(f.q, "page", "", "size", "", "count", ""), "json": base + ".json" + with(f.q),
			"stats": base + "/stats" + with(f.q, "page", "", "size", "", "view", "", "count", ""), "heatmap": base + "/heatmap" + with(f.q, "page", "", "size", "", "view", "", "count", ""),
			"clear": base}}
	start := time.Now()
	countAsk := query.AskCount
	if f.Classes {
		countAsk, d.Of = query.AskCountClasses, "classes"
	}
	countPlan, err := r.plan(t, query.Question{Ask: countAsk, Filter: filter})
	var board *boardCount
	if errors.Is(err, query.ErrCountsOnly) && query.BoardAsked(t.Puzzle, filter) {
		// A toroidal or superqueen filter on queens recorded by their
		// counts: nothing is stored to read or list; the board counter
		// counts it, as 'solcat count' does.
		board, err = s.boardCount(r, t, filter, f.Classes)
	}
	if err != nil {
		return nil, err
	}
	pg := query.Window{Offset: (f.Page - 1) * f.Size, Limit: f.Size}
	d.First = pg.Offset + 1
	var listPlan *query.Plan
	if board != nil {
		d.Plan = board.Report()
	} else {
		d.Plan = t.Explain(countPlan)
		listAsk := query.AskList
		if f.Classes {
			listAsk = query.AskClasses
		}
		listPlan, err = r.plan(t, query.Question{Ask: listAsk, Filter: filter, Window: pg})
		counted := countPlan.Way == query.ConstrainedCount || countPlan.Way == query.FromAnswer
		switch {
		case errors.Is(err, query.ErrCountsOnly) && counted:
			// Nothing stored to list: the count alone, counted again under
			// the filter (or kept from such a count).
			listPlan, err = nil, nil
		case err != nil:
			return nil, err
		}
	}
	// A count that reads millions of rows, or counts again, runs when asked
	// for, unless an earlier page worked it out.
	key := answerKey(t.Record, "count", countAsk, d.Filter)
	n, known := s.answers.lookup(key)
	d.Kept = known
	var count bool
	switch {
	case board != nil:
		count = known || r.json || f.q.Get("count") == "1" || board.Expect() < time.Second
	default:
		count = known || !s.bigScan(countPlan, r, f.q, "count")
		if !known && countPlan.Way == query.ConstrainedCount && t.Puzzle.N >= 18 && !r.json && f.q.Get("count") != "1" {
			count = false // seconds to hours
		}
	}
	if !count {
		d.CountURL = base + with(f.q, "count", "1")
	}
	if count && !known {
		n, err = s.answers.do(r, key, func() (any, error) {
			if board != nil {
				return s.countBoard(r, board)
			}
			var n int64
			err := r.query(func() (err error) { n, err = t.Count(r.ctx, countPlan); return err }, countPlan)
			return n, err
		})
		if err != nil {
			return nil, err
		}
	}
	if count {
		d.Count, d.Counted = n.(int64), true
	}
	// The rows are read first, in places for scans if need be, and drawn
	// after.
	var run []*query.Plan
	if listPlan != nil {
		run = append(run, listPlan)
	}
	var classes []query.Class
	var solutions []query.Solution
	err = r.query(func() error {
		switch {
		case listPlan == nil:
			return nil // recorded by its counts: nothing to list
		case d.Counted && d.Count <= pg.Offset:
			return nil // nothing to list: the count says so without a scan
		case f.Classes:
			return t.Classes(r.ctx, listPlan, func(c query.Class) error { classes = append(classes, c); return nil })
		}
		return t.List(r.ctx, listPlan, func(sol query.Solution) error { solutions = append(solutions, sol); return nil })
	}, run...)
	if err != nil {
		return nil, err
	}
	var objs []records.Object
	scale := boardScale(t.Puzzle)
	for _, c := range classes {
		d.Items = append(d.Items, item{ID: c.ID, Link: fmt.Sprintf("%s/class/%d", base, c.ID),
			SVG:     draw.Solution(t.Puzzle, c.Canonical, draw.Options{Title: fmt.Sprintf("class %d", c.ID), Scale: scale}),
			Caption: fmt.Sprintf("class %d · orbit %d · %d matching", c.ID, c.Orbit, c.Matching)})
		objs = append(objs, records.ClassObject(t.Puzzle, c, false))
	}
	for _, sol := range solutions {
		d.Items = append(d.Items, item{ID: sol.ID, Link: fmt.Sprintf("%s/solution/%d", base, sol.ID),
			SVG:     draw.Solution(t.Puzzle, sol.Cells, draw.Options{Title: fmt.Sprintf("solution %d", sol.ID), Scale: scale}),
			Caption: fmt.Sprintf("%d · class %d · %s", sol.ID, sol.ClassID, sol.Symmetry)})
		objs = append(objs, records.SolutionObject(t.Puzzle, sol, false))
	}
	d.Elapsed = took(start)
	if f.Page > 1 {
		d.Prev = base + with(f.q, "page", strconv.FormatInt(f.Page-1, 10))
	}
	if int64(len(d.Items)) == f.Size && (!d.Counted || d.First-1+f.Size < d.Count) {
		d.Next = base + with(f.q, "page", strconv.FormatInt(f.Page+1, 10))
	}
	if objs == nil {
		objs = []records.Object{}
	}
	j := append(records.Obj("puzzle", d.Puzzle), records.OEISObject(t.Puzzle.Kind)...) // as info names them
	j = append(j, records.Obj("filter", d.Filter, "of", d.Of)...)
	if d.Counted {
		j = append(j, records.Obj("count", d.Count)...)
	}
	j = append(j, records.Obj("page", f.Page, "size", f.Size)...)
	// The neighbouring pages' JSON, so that a client can walk the list.
	if d.Prev != "" {
		j = append(j, records.Obj("prev", base+".json"+with(f.q, "page", strconv.FormatInt(f.Page-1, 10)))...)
	}
	if d.Next != "" {
		j = append(j, records.Obj("next", base+".json"+with(f.q, "page", strconv.FormatInt(f.Page+1, 10)))...)
	}
	j = append(j, records.Obj("plan", planObject(d.Plan), "elapsed_ms", time.Since(start).Milliseconds(), d.Of, objs)...)
	return &page{Template: "puzzle.html", Title: d.Puzzle, Data: d, JSON: j}, nil
}

func planObject(r query.PlanReport) records.Object { return records.ExplainObject(r) }

// A boardCount is the count of a board property (toroidal, superqueen)
// of queens recorded by their counts, with the answer kept by an earlier
// 'solcat count' if there is one.
type boardCount struct {
	query.Unrecorded
	answer int64
	kept   bool
}

// boardCount plans a board count and looks up its kept answer (its report
// says whether there was one).
func (s *Server) boardCount(r *request, t *query.BoundPuzzle, filter query.Filter, classes bool) (*boardCount, error) {
	u, ok, err := query.PlanUnrecorded(r.ctx, s.cat, t.Puzzle, filter, classes, s.readers)
	if err != nil || !ok {
		return nil, cmp.Or(err, errors.New("the board count has no plan")) // not reached: the puzzle is recorded by its counts
	}
	b := &boardCount{Unrecorded: u}
	if b.answer, b.kept, err = u.LookUp(r.ctx, s.cat); err != nil {
		return nil, err
	}
	return b, nil
}

// countBoard gives the answer kept, or counts; the server keeps nothing.
func (s *Server) countBoard(r *request, b *boardCount) (any, error) {
	if b.kept {
		return b.answer, nil
	}
	if err := b.Refusal(); err != nil {
		return nil, err
	}
	var n int64
	err := r.queryOn(s.readers, func() (err error) {
		n, _, err = b.Count(r.ctx, map[int]int64{}, nil, nil)
		return err
	})
	return n, err
}

// boardScale keeps a list's drawings about the same size whatever N.
func boardScale(p canon.Puzzle) float64 {
	return 160 / float64(40*p.N)
}

type classData struct {
	Puzzle   string
	Class    query.Class
	Total    int64
	Form     string // the canonical form drawn
	Pairs    string // magic:4: its complementary pairs drawn (Dudeney's pattern)
	Group    string // magic:4: Dudeney's group
	FixedBy  []string
	Props    string
	Members  []item
	Solution *item  // the solution page's solution
	Text     string // what 'solcat show' prints of it
	Sums     string // magic squares: the canonical form's line sums and the magic constant
	SolSums  string // and the solution's
}

func (s *Server) classPage(r *request) (*page, error)    { return s.showPage(r, false) }
func (s *Server) solutionPage(r *request) (*page, error) { return s.showPage(r, true) }

// showPage draws the class whose ID the address names or, for a solution
// page, the solution and its class. Its JSON is show's: the class's
// members, as list prints solutions.
func (s *Server) showPage(r *request, solution bool) (*page, error) {
	t, err := s.target(r)
	if err != nil {
		return nil, err
	}
	if _, err := params(r.Request, showParams, t.Puzzle); err != nil {
		return nil, err
	}
	n, err := id(r)
	if err != nil {
		return nil, err
	}
	classID, solutionID := n, int64(0)
	if solution {
		classID, solutionID = 0, n
	}
	shown, err := t.Show(r.ctx, classID, solutionID)
	if err != nil {
		return nil, err
	}
	pg := &page{Template: "class.html", Title: fmt.Sprintf("%s class %d", t.Puzzle, n), Data: drawClass(t, shown), JSON: records.ShownMembers(shown)}
	if solution {
		pg.Title = fmt.Sprintf("%s solution %d", t.Puzzle, n)
	}
	return pg, nil
}

// drawClass draws a class, its members and the solution asked for, if any.
func drawClass(t *query.BoundPuzzle, shown query.Shown) classData {
	p, class := t.Puzzle, shown.Class
	d := classData{Puzzle: p.String(), Class: class, Total: t.Record.Classes, Props: propList(class.Props), FixedBy: shown.FixedBy,
		Form: draw.Solution(p, class.Canonical, draw.Options{Title: fmt.Sprintf("class %d, canonical form", class.ID), Coords: true}),
		Text: records.ShownText(shown, false), Sums: records.LineSumsText(p, class.Canonical)}
	if p.Kind == canon.Magic && p.N == 4 {
		d.Pairs = draw.Solution(p, class.Canonical, draw.Options{Title: "complementary pairs", Pairs: true, Coords: true})
		if g := class.Props.DudeneyOf(); g != 0 {
			d.Group = canon.DudeneyNumeral(g)
		}
	}
	base := "/puzzle/" + p.String()
	for _, sol := range shown.Members {
		d.Members = append(d.Members, item{ID: sol.ID, Link: fmt.Sprintf("%s/solution/%d", base, sol.ID),
			SVG:     draw.Solution(p, sol.Cells, draw.Options{Title: fmt.Sprintf("solution %d", sol.ID), Scale: boardScale(p)}),
			Caption: fmt.Sprintf("%d · %s", sol.ID, sol.Symmetry)})
	}
	if sol := shown.Solution; sol != nil {
		o := draw.Options{Title: fmt.Sprintf("solution %d", sol.ID), Coords: true}
		svg := draw.Solution(p, sol.Cells, o)
		if p.Kind == canon.Magic && p.N == 4 {
			svg = draw.GridAndPairs(p, sol.Cells, o) // its grid, and beside it its complementary pairs
		}
		d.Solution = &item{ID: sol.ID, SVG: svg,
			Caption: fmt.Sprintf("solution %d of %s: class %d, %s of its canonical form", sol.ID, comma(t.Record.Solutions), sol.ClassID, sol.Symmetry)}
		d.SolSums = records.LineSumsText(p, sol.Cells)
	}
	return d
}

// magicConstant is a magic square's magic constant; 0 for queens.
func magicConstant(p canon.Puzzle) int {
	if p.Kind != canon.Magic {
		return 0
	}
	return canon.MagicConstant(p.N)
}

// propList names a class's properties as the CLI writes them
// ("self-complementary,dudeney-VI"), none as "none".
func propList(ps canon.Property) string {
	if len(ps.Names()) == 0 {
		return "none"
	}
	return records.PropsText(ps)
}

type statsData struct {
	Puzzle  string
	By      string
	Filter  string
	Chart   string
	Rows    []query.StatsRow
	Total   int64
	Plan    query.PlanReport
	Elapsed string
	Choices []string
	Hidden  []hiddenField // the filter, kept when another statistic is chosen
	RunURL  string        // set when the statistic needs a scan that has not run
	Kept    bool          // worked out by an earlier page
}

// bigScan reports whether a plan reads millions of rows: a page that
// would run it shows the plan and a link that runs it instead, unless the
// request says param=1 (or asks for JSON).
func (s *Server) bigScan(p *query.Plan, r *request, q url.Values, param string) bool {
	scan := p.Way == query.BlockScan || p.Way == query.ClassScan
	return scan && p.Reads() > s.scan && !r.json && q.Get(param) != "1"
}

// hidden is a query string as hidden form fields, but for the names the
// form itself sets.
type hiddenField struct{ Name, Value string }

func hidden(q url.Values, except ...string) []hiddenField {
	var out []hiddenField
	for name, values := range q {
		if slices.Contains(except, name) {
			continue
		}
		for _, v := range values {
			out = append(out, hiddenField{name, v})
		}
	}
	slices.SortFunc(out, func(a, b hiddenField) int { return strings.Compare(a.Name+"="+a.Value, b.Name+"="+b.Value) })
	return out
}

func (s *Server) statsPage(r *request) (*page, error) {
	t, f, filter, err := s.filtered(r, statsParams)
	if err != nil {
		return nil, err
	}
	if _, err := choice(f.q, "run", "1"); err != nil {
		return nil, err
	}
	byText := f.q.Get("by")
	if byText == "" {
		byText = "orbit"
	}
	by, err := query.ParseStatsBy(t.Puzzle, byText)
	if err != nil {
		return nil, err
	}
	if by.Kind == query.ByHeatmap {
		return nil, errorf(http.StatusBadRequest, "by cell takes every cell at once: the heat map, at /puzzle/%s/heatmap, draws it", t.Puzzle)
	}
	start := time.Now()
	plan, err := r.plan(t, query.Question{Ask: query.AskStats, Filter: filter, By: by})
	if err != nil {
		return nil, err
	}
	d := statsData{Puzzle: t.Puzzle.String(), By: byText, Filter: filter.String(t.Puzzle), Plan: t.Explain(plan), Hidden: hidden(f.q, "by", "run")}
	key := answerKey(t.Record, "stats", d.Filter, by)
	rows, known := s.answers.lookup(key)
	d.Kept = known
	switch {
	case !known && s.bigScan(plan, r, f.q, "run"):
		d.RunURL = "/puzzle/" + d.Puzzle + "/stats" + with(f.q, "run", "1")
	case !known:
		rows, err = s.answers.do(r, key, func() (any, error) {
			var rows []query.StatsRow
			err := r.query(func() (err error) { rows, err = t.Stats(r.ctx, plan); return err }, plan)
			return rows, err
		})
		if err != nil {
			return nil, err
		}
	}
	if rows != nil {
		d.Rows = rows.([]query.StatsRow)
		d.Chart = draw.Bars(d.Rows, draw.Options{Title: t.Puzzle.String() + " by " + byText})
	}
	d.Elapsed = took(start)
	for _, row := range d.Rows {
		d.Total += row.Solutions
	}
	d.Choices = []string{"orbit"}
	n := t.Puzzle.N
	if t.Puzzle.Kind == canon.Queens {
		for r := 1; r <= n; r++ {
			d.Choices = append(d.Choices, fmt.Sprintf("row:%d", r))
		}
		for c := 1; c <= n; c++ {
			d.Choices = append(d.Choices, fmt.Sprintf("col:%d", c))
		}
	} else {
		for x := range n * n {
			d.Choices = append(d.Choices, fmt.Sprintf("cell:%d,%d", x/n+1, x%n+1))
		}
		if n == 4 {
			d.Choices = append(d.Choices, "group")
		}
	}
	for _, name := range canon.PropertyNames(t.Puzzle.Kind) {
		if prop, _ := canon.ParseProperty(t.Puzzle.Kind, name); prop.DudeneyOf() == 0 {
			d.Choices = append(d.Choices, "prop:"+name)
		}
	}
	objs := make([]records.Object, len(d.Rows))
	for i, row := range d.Rows {
		objs[i] = records.Obj("value", row.Value, "label", row.Label, "solutions", row.Solutions, "classes", row.Classes, "share", row.Share)
	}
	j := records.Obj("puzzle", d.Puzzle, "by", byText, "filter", d.Filter, "matching", d.Total, "rows", objs)
	return &page{Template: "stats.html", Title: d.Puzzle + " statistics", Data: d, JSON: j}, nil
}

type heatData struct {
	Puzzle  string
	Filter  string
	Maps    []heatMap
	Plan    query.PlanReport
	Elapsed string
	RunURL  string // set when the map needs a scan that has not run
	Kept    bool   // worked out by an earlier page
}

type heatMap struct {
	Title string
	SVG   string
}

func (s *Server) heatPage(r *request) (*page, error) {
	t, f, filter, err := s.filtered(r, heatmapParams)
	if err != nil {
		return nil, err
	}
	if _, err := choice(f.q, "run", "1"); err != nil {
		return nil, err
	}
	start := time.Now()
	plan, err := r.plan(t, query.Question{Ask: query.AskStats, Filter: filter, By: query.StatsBy{Kind: query.ByHeatmap}})
	if err != nil {
		return nil, err
	}
	p := t.Puzzle
	d := heatData{Puzzle: p.String(), Filter: filter.String(p), Plan: t.Explain(plan)}
	key := answerKey(t.Record, "heatmap", d.Filter)
	v, known := s.answers.lookup(key)
	d.Kept = known
	if !known && s.bigScan(plan, r, f.q, "run") {
		d.RunURL = "/puzzle/" + d.Puzzle + "/heatmap" + with(f.q, "run", "1")
		d.Elapsed = took(start)
		return &page{Template: "heatmap.html", Title: d.Puzzle + " heat map", Data: d}, nil
	}
	if !known {
		v, err = s.answers.do(r, key, func() (any, error) {
			var counts [][]int64
			err := r.query(func() (err error) { counts, err = t.Heatmap(r.ctx, plan); return err }, plan)
			return counts, err
		})
		if err != nil {
			return nil, err
		}
	}
	counts := v.([][]int64)
	// One shape in the CLI (stats --by cell) and here.
	h := records.Heatmap{Puzzle: p, Filter: d.Filter, Counts: counts}
	rows, cols, grid := h.Grid()
	if p.Kind == canon.Queens {
		d.Maps = append(d.Maps, heatMap{"solutions with a queen on each square (row, column)", draw.Heat(rows, cols, grid, draw.Options{Title: "queens by square"})})
	} else {
		d.Maps = append(d.Maps, heatMap{"squares with each value (column) in each cell (row)", draw.Heat(rows, cols, grid, draw.Options{Title: "values by cell"})})
	}
	d.Elapsed = took(start)
	j := h.Object()
	return &page{Template: "heatmap.html", Title: d.Puzzle + " heat map", Data: d, JSON: j}, nil
}

// download streams what a puzzle page shows (its filter; solutions, or
// classes with view=classes) as CSV, JSON lines or Parquet. It waits for
// a download slot (never a page's), up to the page time limit, and has a
// time limit of its own (Options.DownloadTimeout). The rows are read in
// pieces, each read whole before it is sent, so a client that reads
// slowly holds no catalog connection; one that reads nothing is cut off
// after the client time limit. A download that fails once its rows have
// begun is cut off, so that the browser reports it failed rather than
// keep a file that looks whole.
func (s *Server) download(w http.ResponseWriter, hr *http.Request) {
	ctx, cancel := context.WithTimeout(hr.Context(), s.downloadTimeout)
	defer cancel()
	r := &request{Request: hr, ctx: ctx, limit: s.downloadTimeout, s: s}
	t, f, filter, err := s.filtered(r, downloadParams)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	var format records.Format
	var kind string
	file := hr.PathValue("file")
	switch file {
	case "rows.csv":
		format, kind = records.CSV, "text/csv; charset=utf-8"
	case "rows.jsonl":
		format, kind = records.JSONL, "application/jsonl"
	case "rows.parquet":
		format, kind = records.Parquet, "application/vnd.apache.parquet"
	default:
		s.fail(w, r, errorf(http.StatusNotFound, "%s: downloads are rows.csv, rows.jsonl or rows.parquet", file))
		return
	}
	wait, stop := context.WithTimeout(ctx, s.timeout)
	defer stop()
	select {
	case s.loads <- struct{}{}:
		defer func() { <-s.loads }()
	case <-wait.Done():
		s.fail(w, r, errorf(http.StatusServiceUnavailable, "the server is busy: every download slot (%d) is taken, and this download could not start within %s; try again later", cap(s.loads), s.timeout))
		return
	}
	ask, what := query.AskList, "solutions"
	if f.Classes {
		ask, what = query.AskClasses, "classes"
	}
	plan, err := r.plan(t, query.Question{Ask: ask, Filter: filter, Window: query.Window{Limit: -1}})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	name := strings.NewReplacer(":", "-").Replace(t.Puzzle.String()) + "-" + what + file[strings.LastIndexByte(file, '.'):]
	dataset := release.Read().Dataset(t.Puzzle, filter.String(t.Puzzle), t.Record.ContentHash, records.CellColumns)
	// The download holds a place for long reads (one: a stream reads on one
	// goroutine) while it reads a piece, never while it sends one.
	var piece bytes.Buffer
	started, reading := false, false
	read := func() error {
		if err := s.reads.Acquire(r.ctx, 1); err != nil {
			return err
		}
		reading = true
		return nil
	}
	done := func() {
		if reading {
			s.reads.Release(1)
			reading = false
		}
	}
	defer done()
	send := func() error {
		if !started {
			w.Header().Set("Content-Type", kind)
			w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
			started = true
		}
		_, err := w.Write(piece.Bytes())
		piece.Reset()
		return err
	}
	pause := query.Pause{
		Full: func() bool { return piece.Len() >= pieceBytes },
		Flush: func() error {
			done()
			if err := send(); err != nil {
				return err
			}
			return read()
		},
	}
	if err = read(); err == nil {
		_, err = records.StreamPaused(r.ctx, t, plan, &piece, format, true, dataset, pause)
	}
	done()
	if err == nil {
		err = send()
	}
	switch {
	case err != nil && !started:
		s.fail(w, r, err) // nothing sent yet: a page that says why
	case err != nil:
		panic(http.ErrAbortHandler) // cut the connection: the file is not whole
	}
}

// took says how long since start, to the millisecond, or to the microsecond
// under one.
func took(start time.Time) string {
	d := time.Since(start)
	if d < time.Millisecond {
		return d.Round(time.Microsecond).String()
	}
	return d.Round(time.Millisecond).String()
}
