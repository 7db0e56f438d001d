package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"

	"github.com/alecthomas/kong"

	"solcat/canon"
	"solcat/catalog/catfile"
	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/cliparse"
	"solcat/cmd/solcat/completion"
	"solcat/cmd/solcat/console"
	"solcat/cmd/solcat/exporter"
	"solcat/cmd/solcat/help"
	"solcat/cmd/solcat/opener"
	"solcat/query"
	"solcat/query/keeper"
	"solcat/query/records"
)

// cli is the whole command line. Flags declared here apply to every command.
type cli struct {
	DB      string      `name:"db" env:"SOLCAT_DB" default:"./solcat.db" predictor:"file" help:"Catalog file."`
	Version versionFlag `name:"version" short:"v" help:"Print solcat's version and exit."`

	Build    buildCmd    `cmd:"" help:"Enumerate puzzles and store every solution (or, with --count-only, the counts) in the catalog."`
	Count    countCmd    `cmd:"" help:"Count the solutions (or classes) that match filters."`
	List     listCmd     `cmd:"" help:"List matching solutions in lexicographic order."`
	Classes  classesCmd  `cmd:"" help:"List classes: ID, orbit size, matching members, canonical form."`
	Show     showCmd     `cmd:"" help:"Draw one class and its members."`
	Export   exportCmd   `cmd:"" help:"Stream solutions or classes as ${export_formats}."`
	Info     infoCmd     `cmd:"" help:"What the catalog holds, with counts checked against OEIS."`
	SQL      sqlCmd      `cmd:"" name:"sql" help:"Run a read-only SQL query on the catalog."`
	Estimate estimateCmd `cmd:"" help:"Estimate counts past exact reach (queens to N=32, magic squares to order 7) by random probes, with a standard error and a 95% interval."`
	Stats    statsCmd    `cmd:"" help:"Distribution of a cell's value, a queen's column, the orbit size, a property or the Dudeney group."`
	Verify   verifyCmd   `cmd:"" help:"Re-check every stored solution, class, count and the content hash."`
	Check    checkCmd    `cmd:"" help:"Check solutions as people have them (USACO lines, squares, solcat's CSV and JSON): right or why not, and their IDs."`
	Bench    benchCmd    `cmd:"" help:"Run the enumeration methods side by side and compare their speed."`
	Merge    mergeCmd    `cmd:"" help:"Combine the shard catalogs of a split build into one catalog."`
	Serve    serveCmd    `cmd:"" help:"Serve the catalog as local web pages, every solution drawn."`

	VersionCmd versionCmd         `cmd:"" name:"version" help:"Print solcat's version: module, revision, Go, catalog schema."`
	Help       helpCmd            `cmd:"" help:"Show the help of a command: solcat help count."`
	Completion completion.Command `cmd:"" help:"Print the code that turns on tab completion in bash, zsh or fish: source <(solcat completion bash --code)."`
}

// env is what every command's Run receives: the context, the streams and
// the opener of the catalog --db names.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	*opener.Opener
}

// usagef is advice.Usagef: a mistake in the command line, exit status 2.
var usagef = advice.Usagef

// savesWork is a command that saves work as it goes (build, merge): Ctrl-C
// lets it stop between units, and it says what was saved.
type savesWork interface {
	interrupted() error
}

// exitCode records kong's request to end the process (after --help,
// --version, a completion): run returns it as its exit status rather than
// leave from the middle of Parse.
type exitCode struct {
	asked bool
	code  int
}

func (x *exitCode) exit(code int) {
	if !x.asked {
		x.asked, x.code = true, code
	}
}

// streams are the command's standard input, output and error.
type streams struct {
	in       io.Reader
	out, err io.Writer
}

// run parses args, runs the command and returns the exit status: 0 on
// success, 2 for a bad command line, 1 for any other failure.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	var c cli
	var exit exitCode
	parser, err := kong.New(&c,
		kong.Name("solcat"),
		kong.Description(help.Text("solcat")),
		kong.Writers(stdout, stderr),
		kong.Exit(exit.exit),
		kong.Bind(&exit),
		kong.BindTo(ctx, (*context.Context)(nil)),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.Vars{"export_extensions": records.ExtensionList(), "export_formats": exporter.FormatNames(),
			"formats": cliparse.Enum(records.Formats...), "show_formats": cliparse.Enum(append(records.Formats, records.SVG)...),
			"export_format_list": cliparse.Enum(exporter.Formats...)},
		kong.TypeMapper(reflect.TypeOf(int(0)), cliparse.Decimal(strconv.IntSize)),
		kong.TypeMapper(reflect.TypeOf(int64(0)), cliparse.Decimal(64)),
		kong.TypeMapper(reflect.TypeOf(records.Format("")), cliparse.OneOf()),
	)
	if err != nil {
		fmt.Fprintf(stderr, "solcat: internal error: %v\n", err)
		return 1
	}
	// Tab completion: when a shell asks (COMP_LINE is set), answer and exit.
	if completion.Register(parser, args); exit.asked {
		return exit.code
	}
	args = cliparse.JoinNegatives(parser, args)
	kctx, err := parser.Parse(args)
	if exit.asked { // --help, --version: what was left to parse does not matter
		return exit.code
	}
	inputs := append([]string{c.DB}, args...)
	fail := func(code int, msg string) int {
		fmt.Fprintf(stderr, "solcat: %s\n", console.ErrorLine(msg, inputs))
		return code
	}
	var perr *kong.ParseError
	var usage advice.Usage
	switch {
	case err != nil && cliparse.NoCommand(args) && errors.As(err, &perr):
		// solcat alone: its usage and commands, as git and go print theirs.
		perr.Context.PrintUsage(false)
		return 2
	case errors.As(err, &usage): // a value a mapper refused, worded whole
		return fail(2, usage.Error())
	case err != nil:
		return fail(2, cliparse.Mistake(err, args))
	}
	if err := cliparse.EmptyValues(kctx, args); err != nil {
		return fail(2, err.Error())
	}
	if c.DB == "" { // SOLCAT_DB set to nothing
		return fail(2, "--db is empty (or SOLCAT_DB is set to nothing); name the catalog file")
	}
	var saver savesWork
	if node := kctx.Selected(); node != nil && node.Target.CanAddr() {
		saver, _ = node.Target.Addr().Interface().(savesWork)
	}
	if saver == nil {
		// Nothing to save: Ctrl-C ends the command even while a write blocks.
		stdout, stderr = console.Stoppable(ctx, stdout), console.Stoppable(ctx, stderr)
	}
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr,
		Opener: &opener.Opener{DB: c.DB, Named: cliparse.Given(kctx, "db", "SOLCAT_DB"), Command: args}}
	kctx.Bind(e, streams{in: stdin, out: stdout, err: stderr})
	err = kctx.Run()
	if exit.asked { // 'solcat help CMD'
		return exit.code
	}
	if changed := e.Changed(); changed != nil {
		err = changed // what was read may not be the catalog's: no answer, nor damage, from it
	}
	if err == nil {
		return 0
	}
	if errors.As(err, &perr) { // 'solcat help nosuch': the command line of the help asked for
		return fail(2, cliparse.Mistake(err, nil))
	}
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		err = advice.ErrInterrupted // Ctrl-C or SIGTERM: say so, not "context canceled"
		if saver != nil {
			err = saver.interrupted()
		}
	}
	console.Interrupted(ctx, stderr)
	code = advice.ExitStatus(err)
	err = catfile.DamageError(c.DB, err) // SQLite's "malformed", wherever it came from, is a damaged catalog
	files := "--db"
	if _, merging := saver.(*mergeCmd); merging {
		files = "files"
	}
	return fail(code, advice.Remedy(err, files).Error())
}

// keeper keeps the command's counts and estimates in its catalog,
// telling the user on stderr.
func (e *env) keeper() *keeper.Keeper {
	return &keeper.Keeper{Open: e.Opener, Note: func(line string) { fmt.Fprintf(e.stderr, "solcat: %s\n", line) },
		Bar: func() query.Progress { return console.UnitsBar(e.stderr) }}
}

// planned opens the named stored puzzle and plans the question its
// filter flags and q ask.
func (e *env) planned(name string, flags cliparse.FilterFlags, q query.Question) (*query.BoundPuzzle, *query.Plan, func(), error) {
	// The filter is read first, so that one written wrong is said whether
	// the puzzle is in the catalog or not (a name that does not read is
	// Target's to say).
	if p, err := canon.ParsePuzzle(name); err == nil {
		if q.Filter, err = flags.Filter(p); err != nil {
			return nil, nil, nil, err
		}
	}
	t, done, err := e.Target(e.ctx, name)
	if err != nil {
		return nil, nil, nil, err
	}
	if q.Ask == query.AskStats && q.By.Kind == 0 {
		err = usagef("--by is needed")
	}
	var plan *query.Plan
	if err == nil {
		plan, err = t.Plan(e.ctx, q)
	}
	if err == nil {
		e.noneCanMatch(t.Puzzle, q.Filter)
	}
	if err != nil {
		done()
		return nil, nil, nil, err
	}
	return t, plan, done, nil
}

// noneCanMatch says why no solution of p can meet f, if none can: its
// answer is empty, and a bare 0 would leave the user guessing.
func (e *env) noneCanMatch(p canon.Puzzle, f query.Filter) {
	if why := f.Impossible(p); why != "" {
		fmt.Fprintf(e.stderr, "solcat: no solution can match: %s\n", why)
	}
}

// explain prints a plan for --explain.
func (e *env) explain(t *query.BoundPuzzle, plan *query.Plan, format records.Format) error {
	return records.WriteExplain(e.stdout, format, advice.Explained(t.ExplainReading(e.ctx, plan)))
}
