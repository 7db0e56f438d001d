// Package completion tells the shells' tab completion what the values of
// solcat's flags and arguments can be: the puzzles of the catalog named on
// the command line, properties, formats, statistics and files.
package completion

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"
	kongcompletion "github.com/jotaen/kong-completion"
	"github.com/posener/complete"

	"solcat/canon"
	"solcat/catalog"
	"solcat/cmd/solcat/advice"
	"solcat/query/solve"
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
	for n := 1; n <= solve.MaxCountedMagic; n++ {
		out = append(out, fmt.Sprintf("magic:%d", n))
	}
	for n := 1; n <= solve.MaxCountedQueens; n++ {
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
// Dudeney group is magic:4's alone. Once a choice that goes on is typed
// (row:, col:, prop:), its values: the rows or columns of the puzzle on
// the line, or its properties.
func statistics(a complete.Args) []string {
	p, ok := puzzleOnLine(a)
	switch {
	case ok && (strings.HasPrefix(a.Last, "row:") || strings.HasPrefix(a.Last, "col:")):
		var out []string
		for i := 1; i <= p.N; i++ {
			out = append(out, a.Last[:4]+strconv.Itoa(i))
		}
		return out
	case strings.HasPrefix(a.Last, "prop:"):
		var out []string
		for _, name := range properties(a) {
			out = append(out, "prop:"+name)
		}
		return out
	}
	out := []string{"cell:", "row:", "col:", "orbit", "prop:"}
	if !ok || p.Kind == canon.Magic && p.N == 4 {
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
	var commands []string
	for _, n := range parser.Model.Children {
		if !n.Hidden {
			commands = append(commands, n.Name)
		}
	}
	cmd, err := kongcompletion.Command(parser, append(Predictors(), kongcompletion.WithPredictor("command", complete.PredictSet(commands...)))...)
	if err != nil {
		parser.Errorf("completion: %v", err)
		parser.Exit(1)
		return
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

// Shells are the shells solcat completes in.
var Shells = []string{"bash", "zsh", "fish"}

// Command is 'solcat completion [SHELL]': the code that turns completion
// on, with --code; otherwise how to turn it on. Bash's code is a function
// (bash passes it the words and it passes them on, as the tests call it)
// that keeps the cursor after a value that goes on (row:, cell:), the
// others kong-completion's.
type Command struct {
	Shell string `arg:"" optional:"" placeholder:"SHELL" help:"bash, zsh or fish (default: the shell of $SHELL)."`
	Code  bool   `short:"c" help:"Print the code itself, to source."`
}

// Help is the command's long help.
func (c *Command) Help() string {
	return `Without --code, says how to turn tab completion on in SHELL; with it,
prints the code that does, for the shell to source. Add the line to the
shell's startup file (~/.bashrc, ~/.zshrc, ~/.config/fish/config.fish) to
keep completion on.

Examples:
  source <(solcat completion bash --code)
  source <(solcat completion zsh --code)
  solcat completion fish --code | source`
}

// bashCode is bash's: COMPREPLY from solcat's answers, one a line, and no
// space after a lone answer that ends in a colon (row:, so that the row
// follows).
const bashCode = `_solcat_complete() {
    local IFS=$'\n'
    COMPREPLY=($(COMP_LINE="$COMP_LINE" COMP_POINT="$COMP_POINT" %s "$1" "$2" "$3"))
    if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *: ]]; then
        compopt -o nospace 2>/dev/null
    fi
}
complete -o default -o bashdefault -F _solcat_complete %s
`

// Run prints the shell's code, or how to turn completion on.
func (c *Command) Run(ctx *kong.Context) error {
	shell := c.Shell
	if shell == "" {
		shell = filepath.Base(os.Getenv("SHELL"))
		if !slices.Contains(Shells, shell) {
			return advice.Usagef("completion needs a shell ($SHELL is %q): solcat completion bash, zsh or fish", os.Getenv("SHELL"))
		}
	}
	if !slices.Contains(Shells, shell) {
		return advice.Usagef("completion: %q is not a shell solcat completes in; use bash, zsh or fish", shell)
	}
	name := ctx.Model.Name
	if !c.Code {
		source := "source <(" + name + " completion " + shell + " --code)"
		if shell == "fish" {
			source = name + " completion fish --code | source"
		}
		fmt.Fprintf(ctx.Stdout, "To turn on tab completion for %s in this %s, run\n\n    %s\n\nand add that line to %s to keep it on.\n", name, shell, source,
			map[string]string{"bash": "~/.bashrc", "zsh": "~/.zshrc", "fish": "~/.config/fish/config.fish"}[shell])
		return nil
	}
	if shell != "bash" {
		lib := kongcompletion.Completion{Shell: shell, Code: true}
		return lib.Run(ctx)
	}
	bin, err := os.Executable()
	if err != nil {
		return err
	}
	fmt.Fprintf(ctx.Stdout, bashCode, "'"+strings.ReplaceAll(bin, "'", `'\''`)+"'", name)
	return nil
}
