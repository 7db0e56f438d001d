// Package console is the CLI's side of the terminal: error lines fit to
// print, outputs that Ctrl-C can stop while a write blocks, and progress
// bars.
package console

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// How much of a long input (longer than maxEcho bytes) an error line
// repeats: at most maxEcho bytes in all, less if the message would pass
// maxLine (the line is "solcat: " and the message), never less than
// minEcho a stretch. Inputs of ordinary length, file names and puzzles,
// are repeated whole.
const (
	maxEcho = 200
	maxLine = 240
	minEcho = 32
)

// ErrorLine makes msg one line fit for a terminal, however it quotes what
// the user typed (inputs: the arguments and the catalog's name), as it is
// or as %q writes it, and wherever the message came from (solcat, SQLite,
// kong): runs of white space become one space, each stretch of at least
// minEcho bytes that repeats a long input is cut short with an ellipsis,
// and characters that do not print (control characters, bytes that are
// not UTF-8) are escaped as Go writes them, \x1b, so that none reaches the
// terminal raw.
func ErrorLine(msg string, inputs []string) string {
	msg = oneLine(msg)
	var texts []string // what a long input may look like inside msg
	for _, in := range inputs {
		if len(in) <= maxEcho {
			continue
		}
		quoted := strconv.Quote(in)
		texts = append(texts, oneLine(in), oneLine(quoted[1:len(quoted)-1]))
	}
	held := func(s string) bool {
		return slices.ContainsFunc(texts, func(t string) bool { return strings.Contains(t, s) })
	}
	// The stretches of msg, each as long as it can be, that a long input
	// holds: found from their first minEcho bytes, then grown by halves.
	type stretch struct{ from, to int }
	var echoes []stretch
	echoed := 0
	for i := 0; len(texts) > 0 && i+minEcho <= len(msg); {
		if !held(msg[i : i+minEcho]) {
			i++
			continue
		}
		lo, hi := i+minEcho, len(msg)
		for lo < hi {
			mid := (lo + hi + 1) / 2
			if held(msg[i:mid]) {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		echoes = append(echoes, stretch{i, lo})
		echoed += lo - i
		i = lo
	}
	keep := math.MaxInt // the bytes each stretch keeps
	if len(echoes) > 0 {
		ellipses := len("…") * len(echoes)
		budget := min(maxEcho, maxLine-(len(msg)-echoed)-ellipses)
		if echoed > budget {
			keep = max(budget/len(echoes), minEcho)
		}
	}
	var b strings.Builder
	last := 0
	for _, e := range echoes {
		b.WriteString(printable(msg[last:e.from], math.MaxInt))
		b.WriteString(printable(msg[e.from:e.to], keep))
		last = e.to
	}
	b.WriteString(printable(msg[last:], math.MaxInt))
	return b.String()
}

// printable writes s with its characters that do not print escaped as Go
// writes them (\x1b, \u202e, a byte that is not UTF-8 as \xff), cut with
// an ellipsis where it would pass limit bytes.
func printable(s string, limit int) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		piece := s[i : i+size]
		switch {
		case r == utf8.RuneError && size == 1:
			piece = fmt.Sprintf(`\x%02x`, s[i])
		case r != ' ' && !strconv.IsPrint(r):
			q := strconv.QuoteRune(r)
			piece = q[1 : len(q)-1]
		}
		if b.Len()+len(piece) > limit {
			b.WriteString("…")
			break
		}
		b.WriteString(piece)
		i += size
	}
	return b.String()
}

// oneLine joins the lines and runs of white space of s with single spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
