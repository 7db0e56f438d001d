package check

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/dustin/go-humanize"

	"solcat/canon"
	"solcat/catalog"
	"solcat/query"
	"solcat/query/records"
)

// Output is where a check's report goes, and in what format.
type Output struct {
	W       io.Writer
	Format  records.Format
	Headers bool
}

// Opener finds puzzle p in the catalog, if there is one (Stored).
type Opener func(p canon.Puzzle) (Store, error)

// Do reads the solutions in r (hint says what the command line said of
// their puzzle), judges them by the rules and what open finds of their
// puzzle, and writes the report. Its error is a *ReadError (or a notation
// error of the puzzle) when the input cannot be read, nothing printed;
// ErrWrong when an answer is wrong, the report printed. The input is read
// twice, as a stream: once whole, so that one that cannot be read prints
// nothing, then to judge it a batch at a time; an input that cannot go
// back to its start is kept in a temporary file meanwhile.
func Do(ctx context.Context, r io.Reader, hint Hint, open Opener, out Output) error {
	src, err := rereadable(r)
	if err != nil {
		return err
	}
	defer src.Close()
	widest := 0
	in, err := Scan(src, hint, func(e Entry) error {
		widest = max(widest, len(e.Numbers))
		return nil
	})
	if err != nil {
		return err
	}
	if err := src.rewind(); err != nil {
		return err
	}
	store, err := open(in.Puzzle)
	if err != nil {
		return err
	}
	defer store.Close()
	j := newJudge(store, in)
	w := newWriter(out.W, out.Format, out.Headers, in.Puzzle, widest)
	batch := make([]Entry, 0, batchSize)
	flush := func() error {
		results, err := j.judge(ctx, batch)
		if err == nil {
			err = w.results(results)
		}
		batch = batch[:0]
		return err
	}
	if _, err := Scan(src, hint, func(e Entry) error {
		if batch = append(batch, e); len(batch) == batchSize {
			return flush()
		}
		return nil
	}); err != nil {
		return err
	}
	if err := flush(); err != nil {
		return err
	}
	total, err := j.total(ctx)
	if err != nil {
		return err
	}
	if err := w.finish(total, j.unstored); err != nil {
		return err
	}
	return j.err()
}

// batchSize is how many entries are judged, looked up in the catalog and
// printed at a time.
const batchSize = 4096

// Result is what check says of one entry.
type Result struct {
	Entry    Entry
	Problems []string // empty: a right answer; at most maxProblems of them
	More     int      // problems found beyond those in Problems
	// For a solution (Problems may still hold what is wrong with it as an
	// answer, such as a USACO answer's order): its cells as stored, its
	// class's canonical form, the symmetry that carries that form onto it,
	// its orbit size and its class's properties.
	Cells     []byte
	Canonical []byte
	Symmetry  canon.Symmetry
	Orbit     int
	Props     canon.Property
	Stored    *query.Solution // as the catalog holds it; nil where it is not stored
}

// Valid reports whether the entry is a right answer.
func (r Result) Valid() bool { return len(r.Problems) == 0 }

// TotalResult is what check says of an answer's total.
type TotalResult struct {
	Total
	Count    int64  // the puzzle's number of solutions, if Known
	Known    bool   // false: neither the catalog nor the published counts have it
	Source   string // where Count comes from
	Problems []string
}

// Report is what check says of an input.
type Report struct {
	Puzzle  canon.Puzzle
	Form    Form
	Results []Result
	Total   *TotalResult
	// Unstored says why the solution IDs and classes are missing (the
	// catalog does not hold the puzzle's solutions), or is empty.
	Unstored string
}

// Wrong lists the lines of the entries (and the total) that are not right.
func (r Report) Wrong() []int {
	var lines []int
	for _, res := range r.Results {
		if !res.Valid() {
			lines = append(lines, res.Entry.Line)
		}
	}
	if r.Total != nil && len(r.Total.Problems) > 0 {
		lines = append(lines, r.Total.Line)
	}
	return lines
}

// Store is the catalog's side of a check: the puzzle bound where the
// catalog holds it.
type Store struct {
	Bound *query.BoundPuzzle // nil: the catalog has no record of the puzzle
	Why   string             // why it is nil
	// Unfound is what to do about a right solution the catalog does not
	// hold, though it holds every one (damage): the command's words.
	Unfound string
	close   func()
}

// Close closes the catalog.
func (s Store) Close() {
	if s.close != nil {
		s.close()
	}
}

// Stored looks for puzzle p in cat, the catalog at path (nil: there is
// none), and closes cat when the Store is closed. A catalog that is not
// there, or holds no record of p, is no error: check then judges by the
// rules and the published counts alone.
func Stored(ctx context.Context, cat *catalog.Catalog, path string, p canon.Puzzle) (Store, error) {
	if cat == nil {
		return Store{Why: "there is no catalog " + path}, nil
	}
	rec, ok, err := cat.Puzzle(ctx, p.String())
	if err != nil || !ok {
		cat.Close()
		return Store{Why: fmt.Sprintf("%s is not in %s", p, path)}, err
	}
	t, err := query.Bind(ctx, cat, p, rec)
	if err != nil {
		cat.Close()
		return Store{}, err
	}
	return Store{Bound: t, close: func() { cat.Close() }}, nil
}

// Run judges every entry of in, and its total, against the rules and
// what store holds.
func Run(ctx context.Context, store Store, in Input) (Report, error) {
	j := newJudge(store, in)
	results, err := j.judge(ctx, in.Entries)
	if err != nil {
		return Report{}, err
	}
	total, err := j.total(ctx)
	if err != nil {
		return Report{}, err
	}
	return Report{Puzzle: in.Puzzle, Form: in.Form, Results: results, Total: total, Unstored: j.unstored}, nil
}

// judge judges an input's entries a batch at a time, in order, and keeps
// the tally its summary needs.
type judge struct {
	p             canon.Puzzle
	t             *query.BoundPuzzle // nil: the catalog does not store the solutions
	bound         *query.BoundPuzzle // the puzzle's record, if the catalog has one: its count
	unstored      string
	unfound       string // Store.Unfound
	canonicalizer *canon.Images
	given         *Total
	usaco         bool   // a USACO answer: its lines must be the first solutions in order
	seen          int64  // entries judged so far
	prev          []byte // the last entry's cells, for a USACO answer's order
	wrong         []int  // the lines of the first wrong entries
	wrongMore     int    // wrong entries beyond those
	totalWrong    bool
	totalLine     int
}

func newJudge(store Store, in Input) *judge {
	return &judge{p: in.Puzzle, t: store.Bound, bound: store.Bound, unstored: store.Why, unfound: store.Unfound, canonicalizer: canon.NewImages(in.Puzzle), given: in.Total,
		usaco: in.Form == Lines && in.Total != nil && in.Puzzle.Kind == canon.Queens}
}

// judge judges the next entries.
func (j *judge) judge(ctx context.Context, entries []Entry) ([]Result, error) {
	p := j.p
	results := make([]Result, 0, len(entries))
	for _, e := range entries {
		res := Result{Entry: e}
		if e.Shape != "" {
			res.Problems = []string{e.Shape}
			results = append(results, res)
			continue
		}
		res.Problems, res.More, res.Cells = problems(p, e.Numbers)
		if res.Cells != nil {
			form := j.canonicalizer.Canonical(res.Cells)
			res.Canonical = bytes.Clone(form.Canonical)
			res.Symmetry, res.Orbit = form.From, form.Orbit
			res.Props = p.Properties(res.Canonical)
		}
		results = append(results, res)
	}
	if j.t != nil {
		if err := place(ctx, results, j.t, p, j.unfound); err != nil {
			var counts *query.CountsOnlyError
			if !errors.As(err, &counts) {
				return nil, err
			}
			j.t, j.unstored = nil, fmt.Sprintf("%s is recorded by its counts only", p)
		}
	}
	if j.usaco {
		if err := j.usacoOrder(ctx, results); err != nil {
			return nil, err
		}
	}
	for _, res := range results {
		if !res.Valid() {
			if len(j.wrong) < maxWrongLines {
				j.wrong = append(j.wrong, res.Entry.Line)
			} else {
				j.wrongMore++
			}
		}
	}
	j.seen += int64(len(results))
	return results, nil
}

// total judges the answer's total, if it gives one, once every entry is
// judged.
func (j *judge) total(ctx context.Context) (*TotalResult, error) {
	if j.given == nil {
		return nil, nil
	}
	tr := judgeTotal(j.p, j.bound, *j.given)
	if j.usaco && tr.Known && tr.Problems == nil {
		if want := min(3, tr.Count); j.seen != want {
			tr.Problems = append(tr.Problems, fmt.Sprintf("the answer lists %s; a USACO answer lists the first %s (of %s)", canon.Plural(j.seen, "solution"), humanize.Comma(want), humanize.Comma(tr.Count)))
		}
	}
	j.totalWrong, j.totalLine = len(tr.Problems) > 0, tr.Line
	return tr, nil
}

// maxWrongLines is how many wrong lines check's error names.
const maxWrongLines = 10

// place finds the right solutions among those the catalog stores: their
// IDs, classes and symmetries, and their classes' properties as stored.
func place(ctx context.Context, results []Result, t *query.BoundPuzzle, p canon.Puzzle, unfound string) error {
	var cells [][]byte
	var at []int
	for i, res := range results {
		if res.Cells != nil {
			cells, at = append(cells, res.Cells), append(at, i)
		}
	}
	found, err := t.FindAll(ctx, cells)
	if err != nil {
		return err
	}
	for k, sol := range found {
		res := &results[at[k]]
		if sol == nil { // every solution is stored: a right one not found means damage
			problem := fmt.Sprintf("obeys the rules but is not among the %s the catalog stores", canon.Plural(t.Record.Solutions, "solution"))
			if unfound != "" {
				problem += "; " + unfound
			}
			res.Problems = []string{problem}
			continue
		}
		res.Stored, res.Props = sol, sol.Props
	}
	return nil
}

// judgeTotal compares an answer's total with the catalog's count of the
// puzzle or, where the catalog has none, the published one.
func judgeTotal(p canon.Puzzle, t *query.BoundPuzzle, total Total) *TotalResult {
	tr := &TotalResult{Total: total}
	if t != nil {
		tr.Count, tr.Known, tr.Source = t.Record.Solutions, true, "the catalog"
	} else if k, ok := canon.KnownCounts(p); ok {
		tr.Count, tr.Known, tr.Source = k.Solutions, true, "OEIS "+canon.OEIS(p.Kind).Solutions
		if p.Kind == canon.Magic {
			tr.Source = "8 × OEIS " + canon.OEIS(p.Kind).Classes
		}
	}
	if tr.Known && total.Value != tr.Count {
		tr.Problems = []string{fmt.Sprintf("%s has %s, not %s (%s)", p, canon.Plural(tr.Count, "solution"), humanize.Comma(total.Value), tr.Source)}
	}
	return tr
}

// usacoOrder holds a USACO Checker Challenge answer to its task: the first
// solutions in lexicographic order (at most 3), then their number. Where
// the catalog holds the puzzle the k-th line must be solution k; where it
// does not, the lines must at least rise. The count is held to the task
// by total.
func (j *judge) usacoOrder(ctx context.Context, results []Result) error {
	for i := range results {
		res := &results[i]
		if res.Cells == nil {
			j.prev = nil
			continue
		}
		switch want := j.seen + int64(i) + 1; {
		case res.Stored != nil && res.Stored.ID != want:
			first, err := j.t.Solution(ctx, want)
			if err != nil {
				return err
			}
			res.Problems = append(res.Problems, fmt.Sprintf("a solution, but the answer lists the first ones in lexicographic order: this is solution %d, solution %d is %s",
				res.Stored.ID, want, numbersText(j.p, first.Cells)))
		case res.Stored == nil && j.prev != nil && bytes.Compare(res.Cells, j.prev) <= 0:
			res.Problems = append(res.Problems, "a solution, but not after the line above in lexicographic order, as the answer lists them")
		}
		j.prev = res.Cells
	}
	return nil
}

// numbersText writes stored cells as a person types them: the queens'
// 1-based columns, or a square's rows separated by '/'.
func numbersText(p canon.Puzzle, cells []byte) string {
	nums := make([]int, len(cells))
	for i, v := range cells {
		nums[i] = int(v)
		if p.Kind == canon.Queens {
			nums[i]++
		}
	}
	return givenText(p, nums)
}

// givenText writes numbers as given: a queens line, or a square's rows
// separated by " / ".
func givenText(p canon.Puzzle, nums []int) string {
	var b strings.Builder
	for i, v := range nums {
		switch {
		case i == 0:
		case p.Kind == canon.Magic && i%p.N == 0:
			b.WriteString(" / ")
		default:
			b.WriteByte(' ')
		}
		fmt.Fprint(&b, v)
	}
	return b.String()
}

// ErrWrong is what Report.Err returns when an answer is wrong (errors.Is).
var ErrWrong = errors.New("wrong answer")

// Err says which lines are wrong, or is nil when every answer is right.
func (r Report) Err() error {
	j := judge{seen: int64(len(r.Results))}
	for _, res := range r.Results {
		if !res.Valid() {
			if len(j.wrong) < maxWrongLines {
				j.wrong = append(j.wrong, res.Entry.Line)
			} else {
				j.wrongMore++
			}
		}
	}
	if r.Total != nil {
		j.given, j.totalWrong, j.totalLine = &r.Total.Total, len(r.Total.Problems) > 0, r.Total.Line
	}
	return j.err()
}

// err says which lines are wrong (the first maxWrongLines of them), or is
// nil when every answer is right.
func (j *judge) err() error {
	lines := make([]string, 0, len(j.wrong)+1)
	for _, l := range j.wrong {
		lines = append(lines, fmt.Sprint(l))
	}
	wrong, n := len(j.wrong)+j.wrongMore, j.seen
	if j.given != nil {
		n++
		if j.totalWrong {
			wrong++
			if len(lines) < maxWrongLines {
				lines = append(lines, fmt.Sprint(j.totalLine))
			} else {
				j.wrongMore++
			}
		}
	}
	if wrong == 0 {
		return nil
	}
	list := strings.Join(lines, ", ")
	if j.wrongMore > 0 {
		list += fmt.Sprintf(" and %s more", humanize.Comma(int64(j.wrongMore)))
	}
	what := "lines"
	if wrong == 1 {
		what = "line"
	}
	return fmt.Errorf("%w: %s of %s checked (%s %s); the output says why", ErrWrong, humanize.Comma(int64(wrong)), humanize.Comma(n), what, list)
}

// input is check's input, read twice: a file at its start, or else the
// stream kept meanwhile in a temporary file (removed as it is opened).
type input struct {
	f     *os.File
	close bool
}

// rereadable is r as an input that can go back to its start.
func rereadable(r io.Reader) (*input, error) {
	if f, ok := r.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
			if pos, err := f.Seek(0, io.SeekCurrent); err == nil && pos == 0 {
				return &input{f: f}, nil
			}
		}
	}
	spool, err := os.CreateTemp("", "solcat-check-*")
	if err != nil {
		return nil, &ReadError{Problem: fmt.Sprintf("cannot keep the standard input to read it twice: %v; name a file instead", err)}
	}
	os.Remove(spool.Name())
	if _, err := io.Copy(spool, r); err != nil {
		spool.Close()
		return nil, &ReadError{Problem: fmt.Sprintf("cannot read the standard input: %v", err)}
	}
	in := &input{f: spool, close: true}
	if err := in.rewind(); err != nil {
		in.Close()
		return nil, err
	}
	return in, nil
}

func (in *input) Read(p []byte) (int, error) { return in.f.Read(p) }

// rewind goes back to the input's start.
func (in *input) rewind() error {
	if _, err := in.f.Seek(0, io.SeekStart); err != nil {
		return &ReadError{Problem: fmt.Sprintf("cannot read the input again: %v", err)}
	}
	return nil
}

func (in *input) Close() {
	if in.close {
		in.f.Close()
	}
}
