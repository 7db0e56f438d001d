package canon

import "strconv"

// Plural writes a count and its noun, singular for one: "1 class",
// "4 solutions", "2 goroutines". Nouns that end in s take -es.
func Plural(n int64, noun string) string {
	s := strconv.FormatInt(n, 10) + " " + noun
	switch {
	case n == 1 || n == -1:
		return s
	case len(noun) > 0 && noun[len(noun)-1] == 's':
		return s + "es"
	}
	return s + "s"
}
