package canon

import "strconv"

// Thousands writes a count with commas between its groups of three
// digits: 14,772,512.
func Thousands(v int64) string {
	s := strconv.FormatInt(v, 10)
	digits := s
	if v < 0 {
		digits = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3)
	if v < 0 {
		out = append(out, '-')
	}
	for i := range len(digits) {
		if i > 0 && (len(digits)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, digits[i])
	}
	return string(out)
}

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
