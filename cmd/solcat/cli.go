package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/alecthomas/kong"
	kongcompletion "github.com/jotaen/kong-completion"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/enumerate"
	"solcat/query"
	"solcat/query/records"
)

// cli is the whole command line. Flags declared here apply to every command.
type cli struct {
	DB      string      `name:"db" env:"SOLCAT_DB" default:"./solcat.db" predictor:"file" help:"Catalog file."`
	Version versionFlag `name:"version" short:"v" help:"Print solcat's version and exit."`

	Build   buildCmd   `cmd:"" help:"Enumerate puzzles and store every solution (or, with --count-only, the counts) in the catalog."`
	Count   countCmd   `cmd:"" help:"Count the solutions (or classes) that match filters."`
	List    listCmd    `cmd:"" help:"List matching solutions in lexicographic order."`
	Classes classesCmd `cmd:"" help:"List classes: ID, orbit size, matching members, canonical form."`
	Show    showCmd    `cmd:"" help:"Draw one class and its members."`
	Export  exportCmd  `cmd:"" help:"Stream solutions or classes as CSV, JSON lines or Parquet."`
	Info    infoCmd    `cmd:"" help:"What the catalog holds, with counts checked against OEIS."`
	SQL     sqlCmd     `cmd:"" name:"sql" help:"Run a read-only SQL query on the catalog."`
	Stats   statsCmd   `cmd:"" help:"Distribution of a cell's value, a queen's column, the orbit size, a property or the Dudeney group."`
	Verify  verifyCmd  `cmd:"" help:"Re-check every stored solution, class, count and the content hash."`
	Bench   benchCmd   `cmd:"" help:"Run the enumeration methods side by side and compare their speed."`
	Merge   mergeCmd   `cmd:"" help:"Combine the shard catalogs of a split build into one catalog."`
	Serve   serveCmd   `cmd:"" help:"Serve the catalog as local web pages, every solution drawn."`

	VersionCmd versionCmd                `cmd:"" name:"version" help:"Print solcat's version: module, revision, Go, catalog schema."`
	Help       helpCmd                   `cmd:"" help:"Show the help of a command: solcat help count."`
	Completion kongcompletion.Completion `cmd:"" help:"Print the code that turns on tab completion in bash, zsh or fish: source <(solcat completion bash --code)."`
}

// env is what every command's Run receives.
type env struct {
	ctx    context.Context
	stdout io.Writer
	stderr io.Writer
	cli    *cli
	args   []string // the command line, for the build lock's holder
}

// usageError marks a mistake in the command line: exit status 2.
type usageError struct{ error }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// exitRequest carries kong's request to exit (after --help) out of Parse.
type exitRequest int

const description = `solcat keeps every normal magic square (orders 1-4; order 5 as its classes) and
every N-queens solution (N=1-17; 18-19 as their classes; counts up to N=23) in
a SQLite catalog, with each solution's canonical form under the 8 symmetries of
the square, and answers questions over it.

Puzzles are written KIND:N: magic:4, queens:8. Grids are addressed with
1-based ROW,COL. Start with 'solcat build', then 'solcat info'.`

// run parses args, runs the command and returns the exit status: 0 on
// success, 2 for a bad command line, 1 for any other failure.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	var c cli
	parser, err := kong.New(&c,
		kong.Name("solcat"),
		kong.Description(description),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { panic(exitRequest(code)) }),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.TypeMapper(reflect.TypeOf(int(0)), decimal(strconv.IntSize)),
		kong.TypeMapper(reflect.TypeOf(int64(0)), decimal(64)),
	)
	if err != nil {
		fmt.Fprintf(stderr, "solcat: internal error: %v\n", err)
		return 1
	}
	defer func() {
		if r := recover(); r != nil {
			req, ok := r.(exitRequest)
			if !ok {
				panic(r)
			}
			code = int(req)
		}
	}()
	// Tab completion: when a shell asks (COMP_LINE is set), answer and exit.
	kongcompletion.Register(parser, completionPredictors()...)
	kctx, err := parseJoiningNegatives(parser, &args)
	inputs := append([]string{c.DB}, args...)
	fail := func(code int, msg string) int {
		fmt.Fprintf(stderr, "solcat: %s\n", echoLine(msg, inputs))
		return code
	}
	if err != nil {
		msg := err.Error()
		if m := kongNegativeArg.FindStringSubmatch(msg); m != nil {
			// kong took it for short flags and names only the first: -13 is "-1".
			i := slices.IndexFunc(args, func(a string) bool { return strings.HasPrefix(a, m[1]) && isNegative.MatchString(a) })
			if i >= 0 {
				msg = args[i] + " is negative; IDs start at 1"
			}
		}
		return fail(2, fmt.Sprintf("%s; see '%s'", msg, helpFor(err)))
	}
	if err := emptyValues(kctx, args); err != nil {
		return fail(2, err.Error())
	}
	if c.DB == "" { // SOLCAT_DB set to nothing
		return fail(2, "--db is empty (or SOLCAT_DB is set to nothing); name the catalog file")
	}
	command := kctx.Command()
	if !strings.HasPrefix(command, "build") && !strings.HasPrefix(command, "merge") {
		// Nothing to save: Ctrl-C ends the command even while a write blocks.
		stdout, stderr = stoppableOutput(ctx, stdout), stoppableOutput(ctx, stderr)
	}
	err = kctx.Run(&env{ctx: ctx, stdout: stdout, stderr: stderr, cli: &c, args: args})
	if err == nil {
		return 0
	}
	var perr *kong.ParseError
	if errors.As(err, &perr) { // 'solcat help nosuch': the command line of the help asked for
		return fail(2, fmt.Sprintf("%s; see '%s'", err, helpFor(err)))
	}
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		err = errInterrupted // Ctrl-C or SIGTERM: say so, not "context canceled"
		switch {
		case strings.HasPrefix(command, "build"):
			// Stopped between the units that say how much they saved.
			err = fmt.Errorf("%w; what was finished is saved: run the same command to go on", errInterrupted)
		case strings.HasPrefix(command, "merge"):
			err = fmt.Errorf("%w; a merge writes each puzzle whole or not at all: run the same command again", errInterrupted)
		}
	}
	code = 1
	var usage usageError
	if errors.As(err, &usage) || errors.Is(err, canon.ErrNotation) || errors.Is(err, query.ErrFilter) || errors.Is(err, query.ErrNoClass) ||
		errors.Is(err, query.ErrNoSolution) || errors.Is(err, builder.ErrUnsupported) || errors.Is(err, builder.ErrBadShard) || errors.Is(err, builder.ErrBadSplit) || errors.Is(err, builder.ErrOutputHolds) || errors.Is(err, builder.ErrOtherShard) {
		code = 2
	}
	err = catalog.Describe(c.DB, err) // SQLite's "malformed", wherever it came from, is a damaged catalog
	files := "--db"
	if strings.HasPrefix(command, "merge") {
		files = "files"
	}
	return fail(code, withRemedy(err, files).Error())
}

// stoppable is an output that gives up on a write once ctx ends: a write
// into a full pipe (solcat sql ... | less, less not reading) blocks in the
// kernel, where Ctrl-C does not reach it. A write still blocked stopGrace
// after ctx ends is left behind, on its own copy of the bytes, and this and
// every later write fail with ctx's error, so that the command ends as
// interrupted and the process exits. Only for the commands that have
// nothing to save.
type stoppable struct {
	ctx   context.Context
	w     io.Writer
	mu    sync.Mutex
	stuck bool
	buf   []byte
}

// stoppableOutput is w, stoppable unless it is a terminal: Ctrl-C reaches
// a terminal's writer, and commands ask whether theirs is one.
func stoppableOutput(ctx context.Context, w io.Writer) io.Writer {
	if isTerminal(w) {
		return w
	}
	return &stoppable{ctx: ctx, w: w}
}

// stopGrace is how long a write may still take once ctx has ended.
const stopGrace = 200 * time.Millisecond

func (s *stoppable) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stuck {
		return 0, s.ctx.Err()
	}
	type result struct {
		n   int
		err error
	}
	done := make(chan result, 1)
	// The write may outlive this call, so it writes a copy; one buffer
	// serves every write, as a write left behind is the last.
	s.buf = append(s.buf[:0], p...)
	go func() {
		n, err := s.w.Write(s.buf)
		done <- result{n, err}
	}()
	select {
	case r := <-done:
		return r.n, r.err
	case <-s.ctx.Done():
	}
	select {
	case r := <-done:
		return r.n, r.err
	case <-time.After(stopGrace):
		s.stuck = true
		return 0, s.ctx.Err()
	}
}

// decimal reads a number flag or argument in decimal digits only, as
// --cell and the puzzle names are read: kong's own reading takes 010 for
// eight and 0x10 for sixteen.
func decimal(bits int) kong.MapperFunc {
	return func(ctx *kong.DecodeContext, target reflect.Value) error {
		var text string
		if err := ctx.Scan.PopValueInto("number", &text); err != nil {
			return err
		}
		n, err := strconv.ParseInt(text, 10, bits)
		switch {
		case errors.Is(err, strconv.ErrRange):
			return fmt.Errorf("%s is too large; give at most %d", text, int64(1)<<(bits-1)-1)
		case err != nil:
			return fmt.Errorf("%q is not a whole number in decimal digits; write it as, for example, 10", text)
		}
		target.SetInt(n)
		return nil
	}
}

// kongNegative is kong's error for a flag followed by a negative number,
// which it takes for a short flag.
var kongNegative = regexp.MustCompile(`^(--[a-z0-9-]+): expected \w+ value but got "(-[0-9][^"]*)" \(short flag\)`)

// kongNegativeArg is kong's error for a negative number given as an
// argument (show's class ID).
var kongNegativeArg, isNegative = regexp.MustCompile(`^unknown flag (-[0-9])`), regexp.MustCompile(`^-[0-9]+$`)

// parseJoiningNegatives parses args, reading "--limit -1" as "--limit=-1"
// (no flag here is a dash and a digit), so that a negative value meets the
// command's own check and its remedy rather than kong's hint to quote it.
// args is updated to what was parsed.
func parseJoiningNegatives(parser *kong.Kong, args *[]string) (*kong.Context, error) {
	for {
		kctx, err := parser.Parse(*args)
		m := []string(nil)
		if err != nil {
			m = kongNegative.FindStringSubmatch(err.Error())
		}
		if m == nil {
			return kctx, err
		}
		i := 0
		for i < len(*args)-1 && ((*args)[i] != m[1] || (*args)[i+1] != m[2]) {
			i++
		}
		if i >= len(*args)-1 {
			return kctx, err
		}
		*args = slices.Concat((*args)[:i], []string{m[1] + "=" + m[2]}, (*args)[i+2:])
	}
}

// emptyValues refuses a flag given an empty value (--prop "", --output=):
// it would silently mean "no filter" or "no file".
func emptyValues(kctx *kong.Context, args []string) error {
	takesValue := map[string]string{}
	for _, f := range kctx.Flags() {
		if f.IsBool() || f.Name == "help" {
			continue
		}
		takesValue["--"+f.Name] = "--" + f.Name
		if f.Short != 0 {
			takesValue["-"+string(f.Short)] = "--" + f.Name
		}
	}
	for i, arg := range args {
		if arg == "--" {
			break
		}
		name, value, joined := strings.Cut(arg, "=")
		flag, ok := takesValue[name]
		if !ok {
			continue
		}
		if joined && value == "" || !joined && i+1 < len(args) && args[i+1] == "" {
			return fmt.Errorf("%s is given an empty value; give it a value, or leave it out", flag)
		}
	}
	return nil
}

// helpFor is the help command for a parse error: the help of the command
// it was met in, if one was chosen.
func helpFor(err error) string {
	var perr *kong.ParseError
	if errors.As(err, &perr) && perr.Context != nil {
		if node := perr.Context.Selected(); node != nil && node.Type == kong.CommandNode {
			return "solcat " + node.Path() + " --help"
		}
	}
	return "solcat --help"
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// formatFlags are the output flags of the commands that print records.
type formatFlags struct {
	Format    string `name:"format" placeholder:"FORMAT" predictor:"format" help:"Output format: text (the default), json, jsonl or csv, in any case."`
	NoHeaders bool   `name:"no-headers" help:"Leave out the header row of text tables and CSV."`
}

// format returns the chosen output format, text if none was chosen.
func (f formatFlags) format() (records.Format, error) {
	return chooseFormat(f.Format, records.Text, records.Formats...)
}

// chooseFormat reads --format: def if it is empty, else one of allowed, in
// any case.
func chooseFormat(text string, def records.Format, allowed ...records.Format) (records.Format, error) {
	if text == "" {
		return def, nil
	}
	if f, ok := records.ParseFormat(text, allowed...); ok {
		return f, nil
	}
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
	}
	return "", usagef("--format %s does not apply here; use one of: %s", text, strings.Join(names, ", "))
}

// target opens the catalog read-only and binds the named stored puzzle.
func (e *env) target(name string) (*query.BoundPuzzle, func(), error) {
	p, err := canon.ParsePuzzle(name)
	if err != nil {
		return nil, nil, err
	}
	cat, err := e.open(p.String())
	if err != nil {
		return nil, nil, err
	}
	rec, ok, err := cat.Puzzle(e.ctx, p.String())
	if err == nil && !ok {
		err = notBuilt(e, cat, p)
	}
	if err != nil {
		cat.Close()
		return nil, nil, err
	}
	t, err := query.Bind(e.ctx, cat, p, rec)
	if err != nil {
		cat.Close()
		return nil, nil, err
	}
	return t, func() { cat.Close() }, nil
}

// open opens the catalog for reading. In the first instants of a build
// into a new file, the file is not there yet, or not yet a catalog: that
// is said as such. puzzle, if not empty, is the one the command asks about.
func (e *env) open(puzzle string) (*catalog.Catalog, error) {
	cat, err := catalog.Open(e.ctx, e.cli.DB)
	if errors.Is(err, catalog.ErrNoCatalog) || errors.Is(err, catalog.ErrNotCatalog) {
		if writer, running := catalog.RunningWriter(e.cli.DB); running {
			if puzzle != "" && writer.Building(puzzle) {
				return nil, fmt.Errorf("%s is being built: just begun, by %s; wait for the build to finish", puzzle, writer)
			}
			return nil, fmt.Errorf("%s is being created by %s; wait a moment and try again", e.cli.DB, writer)
		}
	}
	return cat, err
}

// shardProgress says how far an unfinished count shard is and how to
// resume it (a stored shard is marked only once it is finished).
func shardProgress(e *env, cat *catalog.Catalog, s catalog.Shard) (string, error) {
	units, err := cat.DoneUnits(e.ctx, s.Puzzle)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d%% counted (%d of %d work units); 'solcat build %s --count-only --shard %d/%d' resumes it",
		100*len(units)/max(s.Units, 1), len(units), s.Units, s.Puzzle, s.Shard, s.Of), nil
}

// notBuilt explains why a puzzle has no record: a build of it is under way
// (from its first instant: the build holds the catalog's lock), or was
// stopped, or it holds a shard, or it was never built, and then how to
// build it, if it can be.
func notBuilt(e *env, cat *catalog.Catalog, p canon.Puzzle) error {
	if s, ok, err := cat.ShardOf(e.ctx, p.String()); err != nil || ok {
		if err != nil {
			return err
		}
		if !s.Done {
			state, err := shardProgress(e, cat, s)
			if err != nil {
				return err
			}
			return fmt.Errorf("%s holds shard %d/%d of %s, unfinished: %s", e.cli.DB, s.Shard, s.Of, p, state)
		}
		return fmt.Errorf("%s holds shard %d/%d of %s, not all of it; combine the %d shards with 'solcat merge OUT SHARD...' and query OUT", e.cli.DB, s.Shard, s.Of, p, s.Of)
	}
	u, unfinished, err := builder.Status(e.ctx, cat, e.cli.DB, p)
	if err != nil {
		return err
	}
	if unfinished {
		return unfinishedError(p, u)
	}
	if enumerate.Supported(p, false) != nil && enumerate.Supported(p, true) != nil {
		return usagef("%s is not in the catalog and cannot be built: solcat stores magic squares up to order %d and queens up to N=%d, and counts queens up to N=%d",
			p, enumerate.MaxCountedMagic, enumerate.MaxClassStoredQueens, enumerate.MaxCountedQueens)
	}
	if p.Kind == canon.Queens && p.N > enumerate.MaxStoredQueens && enumerate.Supported(p, false) == nil {
		return fmt.Errorf("%s is not in the catalog %s; add its classes with '%s', or its counts alone with '%s'", p, e.cli.DB, buildCommand(p, false), buildCommand(p, true))
	}
	return fmt.Errorf("%s is not in the catalog %s; add it with '%s'", p, e.cli.DB, buildCommand(p, false))
}

// unfinishedError says how far an unfinished build of p is, and what to do.
func unfinishedError(p canon.Puzzle, u builder.Unfinished) error {
	return errors.New(u.Describe(u.Resume(buildCommand(p, u.CountOnly))))
}

// buildCommand is the command that builds p: stored if it can be (and
// counts are not asked for), else its counts.
func buildCommand(p canon.Puzzle, countOnly bool) string {
	if countOnly || enumerate.Supported(p, false) != nil {
		return fmt.Sprintf("solcat build %s --count-only", p)
	}
	return fmt.Sprintf("solcat build %s", p)
}

// planned opens the named stored puzzle and plans the question its
// filter flags and q ask.
func (e *env) planned(name string, flags filterFlags, q query.Question) (*query.BoundPuzzle, *query.Plan, func(), error) {
	t, done, err := e.target(name)
	if err != nil {
		return nil, nil, nil, err
	}
	if q.Filter, err = flags.filter(t.Puzzle); err == nil && q.Ask == query.AskStats && q.By.Kind == 0 {
		err = usagef("--by is needed")
	}
	var plan *query.Plan
	if err == nil {
		plan, err = t.Plan(e.ctx, q)
	}
	if err != nil {
		done()
		return nil, nil, nil, err
	}
	return t, plan, done, nil
}

// explain prints a plan for --explain.
func (e *env) explain(t *query.BoundPuzzle, plan *query.Plan, format records.Format) error {
	report := t.Explain(plan)
	switch format {
	case records.JSON:
		return writeJSON(e.stdout, report)
	case records.JSONL:
		line, err := json.Marshal(report)
		if err == nil {
			_, err = fmt.Fprintf(e.stdout, "%s\n", line)
		}
		return err
	case records.CSV:
		out := records.NewPrinter(e.stdout, format, true)
		out.Write(records.Obj("puzzle", report.Puzzle, "storage", report.Storage, "way", report.Way, "workers", report.Workers, "detail", strings.Join(report.Detail, "; ")))
		return out.Close()
	}
	_, err := io.WriteString(e.stdout, report.Text())
	return err
}

// explainFlag is --explain, for the commands that plan their question.
type explainFlag struct {
	Explain bool `name:"explain" help:"Print how the question would be answered (the plan: which storage, which IDs or how many classes it reads) instead of answering it."`
}

// filterFlags are the filters shared by count, list, classes and export.
type filterFlags struct {
	Cell         []string `name:"cell" sep:"none" placeholder:"R,C=V" help:"Cell ROW,COL holds V (1-based; queens: 1 queen, 0 empty). Repeatable."`
	Pattern      string   `name:"pattern" placeholder:"GRID" help:"Cells to match: magic \"1 . . . / . . . . / . . . . / . . . 16\" (rows split by /), queens \"2 4 . . . .\" (1-based column or . per row)."`
	UpToSymmetry bool     `name:"up-to-symmetry" help:"Match the --cell and --pattern conditions in any of the 8 orientations (selects whole classes)."`
	Prop         []string `name:"prop" placeholder:"NAME" predictor:"prop" help:"Only classes with this property (repeatable): magic pandiagonal, associative, most-perfect, self-complementary, dudeney-I to dudeney-XII (order 4); queens rot90-symmetric, rot180-only, asymmetric."`
	Class        *int64   `name:"class" placeholder:"ID" help:"Only members of this class."`
	Orbit        *int     `name:"orbit" placeholder:"K" help:"Only classes with K members (1, 2, 4 or 8)."`
}

func (f filterFlags) filter(p canon.Puzzle) (query.Filter, error) {
	return query.ParseFilter(p, query.FilterText{Cells: f.Cell, Pattern: f.Pattern, UpToSymmetry: f.UpToSymmetry, Props: f.Prop, Class: f.Class, Orbit: f.Orbit})
}

// pageFlags bound a listing.
type pageFlags struct {
	Limit  *int64 `name:"limit" placeholder:"K" help:"At most K results."`
	Offset int64  `name:"offset" placeholder:"K" help:"Skip the first K results."`
}

func (f pageFlags) page() (query.Page, error) {
	p := query.Page{Limit: -1, Offset: f.Offset}
	if f.Limit != nil {
		if *f.Limit < 0 {
			return p, usagef("--limit %d is negative; give a count of 0 or more", *f.Limit)
		}
		p.Limit = *f.Limit
	}
	if f.Offset < 0 {
		return p, usagef("--offset %d is negative; give a count of 0 or more", f.Offset)
	}
	return p, nil
}

// holder describes this process as the writer of a catalog that builds
// the named puzzles.
func (e *env) holder(puzzles []string) catalog.Holder {
	return catalog.NewHolder("solcat "+strings.Join(e.args, " "), puzzles)
}

// ownFile reports whether path is the catalog or one of its files.
func (e *env) ownFile(path string) bool { return catalog.IsOwnFile(e.cli.DB, path) }
