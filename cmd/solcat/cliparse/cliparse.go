// Package cliparse reads solcat's command line where kong's own reading is
// not what solcat promises: numbers in decimal only, values of a closed set
// (enum: tags) in any case, fractions, negative values given as a separate
// word, flags given an empty value, and the help command to name for a
// mistake; and the flag groups the commands share.
package cliparse

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"

	"solcat/cmd/solcat/advice"
)

// Decimal reads a number flag or argument in decimal digits only, as
// --cell and the puzzle names are read: kong's own reading takes 010 for
// eight and 0x10 for sixteen.
func Decimal(bits int) kong.MapperFunc {
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

// OneOf reads a value of a closed set, the flag's enum: tag, in any case,
// and stores it as the tag spells it. An empty name in the set is the flag
// left out. A value outside the set is a mistake worded whole, with the
// names to use instead.
func OneOf() kong.MapperFunc {
	return func(ctx *kong.DecodeContext, target reflect.Value) error {
		var text string
		if err := ctx.Scan.PopValueInto("value", &text); err != nil {
			return err
		}
		if ctx.Value.Enum == "" {
			return fmt.Errorf("--%s has no enum: tag to read it by", ctx.Value.Name) // a mistake in the code
		}
		var names []string
		for _, name := range ctx.Value.EnumSlice() {
			if strings.EqualFold(name, text) {
				target.SetString(name)
				return nil
			}
			if name != "" {
				names = append(names, name)
			}
		}
		if text == "" {
			return emptyValue(ctx.Value.Name)
		}
		return advice.Usagef("--%s %s does not apply here; use one of: %s", ctx.Value.Name, text, strings.Join(names, ", "))
	}
}

// Fraction is a flag's fraction between 0 and 1, written 0.01 or 1%; 0 is
// the flag left out.
type Fraction float64

// Decode reads a Fraction.
func (f *Fraction) Decode(ctx *kong.DecodeContext) error {
	var text string
	if err := ctx.Scan.PopValueInto("fraction", &text); err != nil {
		return err
	}
	if text == "" {
		return emptyValue(ctx.Value.Name)
	}
	number, scale := strings.TrimSpace(text), 1.0
	if strings.HasSuffix(number, "%") {
		number, scale = strings.TrimSuffix(number, "%"), 0.01
	}
	p, err := strconv.ParseFloat(number, 64)
	if err != nil || !(p*scale > 0 && p*scale < 1) {
		return advice.Usagef("--%s %q is not a fraction between 0 and 1; write 0.01 or 1%%", ctx.Value.Name, text)
	}
	*f = Fraction(p * scale)
	return nil
}

// CheckWorkers holds --workers to 0 (one per core) or 1 to most.
func CheckWorkers(n, most int) error {
	if n < 0 || n > most {
		return advice.Usagef("--workers %d is out of range; give 1 to %d, or 0 for one per core (%d here)", n, most, runtime.NumCPU())
	}
	return nil
}

// emptyValue is a flag given an empty value, said as EmptyValues says it.
func emptyValue(name string) error {
	return advice.Usagef("--%s is given an empty value; give it a value, or leave it out", name)
}

// JoinNegatives reads "--limit -1" as "--limit=-1" (no flag here is a
// dash and a digit), so that a negative value meets the command's own
// check and its remedy rather than kong's hint to quote it. The flags that
// take a value are read from the parser's model.
func JoinNegatives(parser *kong.Kong, args []string) []string {
	takesValue := map[string]bool{}
	var walk func(n *kong.Node)
	walk = func(n *kong.Node) {
		for _, f := range n.Flags {
			if !f.IsBool() {
				takesValue["--"+f.Name] = true
				if f.Short != 0 {
					takesValue["-"+string(f.Short)] = true
				}
			}
		}
		for _, child := range n.Children {
			walk(child)
		}
	}
	walk(parser.Model.Node)
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		if args[i] == "--" {
			return append(out, args[i:]...)
		}
		if takesValue[args[i]] && i+1 < len(args) && NegativeNumber(args[i+1]) {
			out = append(out, args[i]+"="+args[i+1])
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// NegativeNumber reports whether arg begins like a negative number: kong
// reads such an argument as short flags.
func NegativeNumber(arg string) bool {
	return len(arg) > 1 && arg[0] == '-' && '0' <= arg[1] && arg[1] <= '9'
}

// EmptyValues refuses a flag given an empty value (--prop "", --output=):
// it would silently mean "no filter" or "no file".
func EmptyValues(kctx *kong.Context, args []string) error {
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

// HelpFor is the help command for a parse error: the help of the command
// it was met in, if one was chosen.
func HelpFor(err error) string {
	var perr *kong.ParseError
	if errors.As(err, &perr) && perr.Context != nil {
		if node := perr.Context.Selected(); node != nil && node.Type == kong.CommandNode {
			return "solcat " + node.Path() + " --help"
		}
	}
	return "solcat --help"
}

// Mistake words a parse error of args: kong's message (a negative number
// left as an argument, show's class ID, is what kong took for short flags:
// said as such) and the help to see.
func Mistake(err error, args []string) string {
	msg := err.Error()
	if i := slices.IndexFunc(args, NegativeNumber); i >= 0 && (i == 0 || args[i-1] != "--") {
		msg = args[i] + " is negative; IDs start at 1"
	}
	return fmt.Sprintf("%s; see '%s'", msg, HelpFor(err))
}

// NoCommand reports whether args name no command: solcat alone, or with
// its --db flag only.
func NoCommand(args []string) bool {
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "--db":
			i++ // its value
		case strings.HasPrefix(args[i], "--db="):
		default:
			return false
		}
	}
	return true
}

// Given reports whether the command line gave the flag, or the environment
// its variable, rather than leaving it to its default.
func Given(kctx *kong.Context, flag, envVar string) bool {
	if _, ok := os.LookupEnv(envVar); ok {
		return true
	}
	for _, p := range kctx.Path {
		if p.Flag != nil && p.Flag.Name == flag {
			return true
		}
	}
	return false
}

// Enum is values as an enum: tag lists them.
func Enum[T ~string](values ...T) string {
	names := make([]string, len(values))
	for i, v := range values {
		names[i] = string(v)
	}
	return strings.Join(names, ",")
}
