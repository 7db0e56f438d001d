package canon

import "github.com/dustin/go-humanize"

// Thousands writes a count with commas between its groups of three
// digits: 14,772,512. It is humanize.Comma, kept under this name for the
// build engine's messages.
func Thousands(v int64) string { return humanize.Comma(v) }

// Plural writes a count, its digits grouped by thousands, and its noun,
// singular for one: "1 class", "7,040 solutions", "2 goroutines". Nouns
// that end in s take -es.
func Plural(n int64, noun string) string {
	s := humanize.Comma(n) + " " + noun
	switch {
	case n == 1 || n == -1:
		return s
	case len(noun) > 0 && noun[len(noun)-1] == 's':
		return s + "es"
	}
	return s + "s"
}
