package check

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/dustin/go-humanize"

	"solcat/canon"
	"solcat/catalog"
	"solcat/query"
	"solcat/query/records"
)

// Call is one `solcat check`: its arguments, the catalog, the streams and
// the output format.
type Call struct {
	First, Second string // [PUZZLE] [FILE|-], as Arguments reads them
	DB            string // the catalog's path
	Stdin         io.Reader
	Stdout        io.Writer
	Format        records.Format
	Headers       bool
}

// Do reads, judges and prints. Its error is a *ReadError (or a notation
// error of the puzzle) when the input cannot be read, nothing printed;
// ErrWrong when an answer is wrong, the report printed.
func Do(ctx context.Context, c Call) error {
	hint, file, err := Arguments(c.First, c.Second)
	if err != nil {
		return err
	}
	data, err := Read(file, c.Stdin)
	if err != nil {
		return err
	}
	in, err := Parse(data, hint)
	if err != nil {
		return err
	}
	store, err := Open(ctx, c.DB, in.Puzzle)
	if err != nil {
		return err
	}
	defer store.Close()
	rep, err := Run(ctx, store, in)
	if err != nil {
		return err
	}
	if err := Write(c.Stdout, c.Format, c.Headers, rep); err != nil {
		return err
	}
	return rep.Err()
}

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
	close func()
}

// Close closes the catalog.
func (s Store) Close() {
	if s.close != nil {
		s.close()
	}
}

// Open looks for puzzle p in the catalog at path. A catalog that is not
// there, or holds no record of p, is no error: check then judges by the
// rules and the published counts alone.
func Open(ctx context.Context, path string, p canon.Puzzle) (Store, error) {
	cat, err := catalog.Open(ctx, path)
	if errors.Is(err, catalog.ErrNoCatalog) {
		return Store{Why: "there is no catalog " + path}, nil
	}
	if err != nil {
		return Store{}, err
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
	p := in.Puzzle
	rep := Report{Puzzle: p, Form: in.Form, Unstored: store.Why}
	canonicalizer := canon.NewCanonicalizer(p)
	t := store.Bound
	for _, e := range in.Entries {
		res := Result{Entry: e}
		if e.Shape != "" {
			res.Problems = []string{e.Shape}
			rep.Results = append(rep.Results, res)
			continue
		}
		res.Problems, res.More, res.Cells = problems(p, e.Numbers)
		if res.Cells != nil {
			form := canonicalizer.Canonical(res.Cells)
			res.Canonical = bytes.Clone(form.Canonical)
			res.Symmetry, res.Orbit = form.From, form.Orbit
			res.Props = p.Properties(res.Canonical)
		}
		rep.Results = append(rep.Results, res)
	}
	if t != nil {
		if err := place(ctx, &rep, t); err != nil {
			var counts *query.CountsOnlyError
			if !errors.As(err, &counts) {
				return Report{}, err
			}
			t, rep.Unstored = nil, fmt.Sprintf("%s is recorded by its counts only", p)
		}
	}
	if in.Total != nil {
		rep.Total = judgeTotal(p, store.Bound, *in.Total)
	}
	if in.Form == Lines && in.Total != nil && p.Kind == canon.Queens {
		if err := usacoOrder(ctx, &rep, t); err != nil {
			return Report{}, err
		}
	}
	return rep, nil
}

// place finds the right solutions among those the catalog stores: their
// IDs, classes and symmetries, and their classes' properties as stored.
func place(ctx context.Context, rep *Report, t *query.BoundPuzzle) error {
	var cells [][]byte
	var at []int
	for i, res := range rep.Results {
		if res.Cells != nil {
			cells, at = append(cells, res.Cells), append(at, i)
		}
	}
	found, err := t.FindAll(ctx, cells)
	if err != nil {
		return err
	}
	for k, sol := range found {
		res := &rep.Results[at[k]]
		if sol == nil { // every solution is stored: a right one not found means damage
			res.Problems = []string{fmt.Sprintf("obeys the rules but is not among the %s the catalog stores; run 'solcat verify %s'", canon.Plural(t.Record.Solutions, "solution"), rep.Puzzle)}
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
// does not, the lines must at least rise.
func usacoOrder(ctx context.Context, rep *Report, t *query.BoundPuzzle) error {
	var prev []byte
	for i := range rep.Results {
		res := &rep.Results[i]
		if res.Cells == nil {
			prev = nil
			continue
		}
		switch want := int64(i + 1); {
		case res.Stored != nil && res.Stored.ID != want:
			first, err := t.Solution(ctx, want)
			if err != nil {
				return err
			}
			res.Problems = append(res.Problems, fmt.Sprintf("a solution, but the answer lists the first ones in lexicographic order: this is solution %d, solution %d is %s",
				res.Stored.ID, want, numbersText(rep.Puzzle, first.Cells)))
		case res.Stored == nil && prev != nil && bytes.Compare(res.Cells, prev) <= 0:
			res.Problems = append(res.Problems, "a solution, but not after the line above in lexicographic order, as the answer lists them")
		}
		prev = res.Cells
	}
	if tr := rep.Total; tr.Known && tr.Problems == nil {
		if want := min(3, tr.Count); int64(len(rep.Results)) != want {
			tr.Problems = append(tr.Problems, fmt.Sprintf("the answer lists %s; a USACO answer lists the first %s (of %s)", canon.Plural(int64(len(rep.Results)), "solution"), humanize.Comma(want), humanize.Comma(tr.Count)))
		}
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
	wrong := r.Wrong()
	if len(wrong) == 0 {
		return nil
	}
	lines := make([]string, len(wrong))
	for i, l := range wrong {
		lines[i] = fmt.Sprint(l)
	}
	n := len(r.Results)
	if r.Total != nil {
		n++
	}
	what := "lines"
	if len(wrong) == 1 {
		what = "line"
	}
	return fmt.Errorf("%w: %d of %d checked (%s %s); the output says why", ErrWrong, len(wrong), n, what, strings.Join(lines, ", "))
}
