// Package completion tells the shells' tab completion what the values of
// solcat's flags and arguments can be: the puzzles of the catalog named on
// the command line, properties, formats, statistics and files.
package completion

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/alecthomas/kong"
	kongcompletion "github.com/jotaen/kong-completion"
	"github.com/posener/complete"

	"solcat/canon"
	"solcat/catalog"
	"solcat/enumerate"
)

// Predictors complete the values of the flags and arguments
// that name puzzles, properties, formats and statistics.
func Predictors() []kongcompletion.Option {
	return []kongcompletion.Option{
		kongcompletion.WithPredictor("puzzle", complete.PredictFunc(catalogPuzzles)),
		kongcompletion.WithPredictor("buildable", complete.PredictSet(buildable()...)),
		kongcompletion.WithPredictor("prop", complete.PredictFunc(properties)),
		kongcompletion.WithPredictor("format", complete.PredictSet("text", "json", "jsonl", "csv")),
		kongcompletion.WithPredictor("exportformat", complete.PredictSet("csv", "json", "jsonl", "parquet")),
		kongcompletion.WithPredictor("showformat", complete.PredictSet("text", "json", "jsonl", "csv", "svg")),
		kongcompletion.WithPredictor("by", complete.PredictFunc(statistics)),
		kongcompletion.WithPredictor("partition", complete.PredictSet("orbit", "symmetry", "cell:", "row:")),
		kongcompletion.WithPredictor("file", complete.PredictFiles("*")),
	}
}

// buildable names every puzzle solcat builds or counts.
func buildable() []string {
	var out []string
	for n := 1; n <= enumerate.MaxCountedMagic; n++ {
		out = append(out, fmt.Sprintf("magic:%d", n))
	}
	for n := 1; n <= enumerate.MaxCountedQueens; n++ {
		out = append(out, fmt.Sprintf("queens:%d", n))
	}
	return out
}

// catalogPuzzles are the puzzles in the catalog the command line names
// (--db, or SOLCAT_DB, or ./solcat.db), or every buildable one.
func catalogPuzzles(a complete.Args) []string {
	db := os.Getenv("SOLCAT_DB")
	if db == "" {
		db = "./solcat.db"
	}
	for i, arg := range a.All {
		if v, ok := strings.CutPrefix(arg, "--db="); ok {
			db = v
		} else if arg == "--db" && i+1 < len(a.All) {
			db = a.All[i+1]
		}
	}
	cat, err := catalog.Open(context.Background(), db)
	if err != nil {
		return buildable()
	}
	defer cat.Close()
	recs, err := cat.Puzzles(context.Background())
	if err != nil || len(recs) == 0 {
		return buildable()
	}
	var names []string
	for _, r := range recs {
		names = append(names, r.Name)
	}
	return names
}

// puzzleOnLine is the puzzle the command line names, if it names one.
func puzzleOnLine(a complete.Args) (canon.Puzzle, bool) {
	for _, w := range a.Completed {
		if p, err := canon.ParsePuzzle(w); err == nil {
			return p, true
		}
	}
	return canon.Puzzle{}, false
}

// properties are the properties of the puzzle on the line (Dudeney's
// groups for magic:4 only), or of every kind.
func properties(a complete.Args) []string {
	p, ok := puzzleOnLine(a)
	if !ok {
		return append(canon.PropertyNames(canon.Magic), canon.PropertyNames(canon.Queens)...)
	}
	var out []string
	for _, name := range canon.PropertyNames(p.Kind) {
		if !strings.HasPrefix(name, "dudeney-") || p.N == 4 {
			out = append(out, name)
		}
	}
	return out
}

// statistics are stats --by's choices for the puzzle on the line: the
// Dudeney group is magic:4's alone.
func statistics(a complete.Args) []string {
	out := []string{"cell:", "row:", "col:", "orbit", "prop:"}
	if p, ok := puzzleOnLine(a); !ok || p.Kind == canon.Magic && p.N == 4 {
		out = append(out, "group")
	}
	return out
}

// Register answers a shell that asks for completions (COMP_LINE is set)
// and exits; otherwise it does nothing. args are the program's arguments:
// bash passes the word it completes as the second, split at ':' (its
// COMP_WORDBREAKS), so that it puts each answer in place of "1" in
// "queens:1", not of the whole word. Each answer loses the part of the
// word bash holds apart, or "queens:1" would become "queens:queens:1".
func Register(parser *kong.Kong, args []string) {
	line, ok := os.LookupEnv("COMP_LINE")
	if !ok || line == "" {
		return
	}
	cmd, err := kongcompletion.Command(parser, Predictors()...)
	if err != nil {
		parser.Errorf("completion: %v", err)
		parser.Exit(1)
	}
	var point int
	if _, err := fmt.Sscan(os.Getenv("COMP_POINT"), &point); err == nil && point >= 0 && point < len(line) {
		line = line[:point]
	}
	word := line[strings.LastIndexAny(line, " \t")+1:]
	out := parser.Stdout
	if len(args) >= 2 && len(args[1]) < len(word) && strings.HasSuffix(word, args[1]) {
		out = &trimmed{w: parser.Stdout, prefix: word[:len(word)-len(args[1])]}
	}
	c := complete.New(parser.Model.Name, cmd)
	c.Out = out
	if c.Complete() {
		parser.Exit(0)
	}
}

// trimmed writes the answers, one a line, each without the prefix the
// shell keeps (those without it do not fit the word and are left out).
type trimmed struct {
	w      io.Writer
	prefix string
}

func (t *trimmed) Write(b []byte) (int, error) {
	for _, line := range strings.SplitAfter(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, t.prefix); ok && rest != "" {
			if _, err := io.WriteString(t.w, rest); err != nil {
				return 0, err
			}
		}
	}
	return len(b), nil
}

// Command is 'solcat completion SHELL': kong-completion's, but for bash a
// function (bash passes it the words and it passes them on, as the tests
// call it) rather than a command, in the same -o default way.
type Command struct {
	kongcompletion.Completion
}

// bashCode is bash's: COMPREPLY from solcat's answers, one a line.
const bashCode = `_solcat_complete() {
    local IFS=$'\n'
    COMPREPLY=($(COMP_LINE="$COMP_LINE" COMP_POINT="$COMP_POINT" %s "$1" "$2" "$3"))
}
complete -o default -o bashdefault -F _solcat_complete %s
`

// Run prints the shell's code.
func (c *Command) Run(ctx *kong.Context) error {
	if c.Shell != "bash" || !c.Code {
		return c.Completion.Run(ctx)
	}
	bin, err := os.Executable()
	if err != nil {
		return err
	}
	fmt.Fprintf(ctx.Stdout, bashCode, "'"+strings.ReplaceAll(bin, "'", `'\''`)+"'", ctx.Model.Name)
	ctx.Exit(0)
	return nil
}
