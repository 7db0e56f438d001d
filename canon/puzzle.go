package canon

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Kind names a puzzle family.
type Kind string

const (
	Magic  Kind = "magic"  // normal magic squares: 1..n² in an n×n grid
	Queens Kind = "queens" // n non-attacking queens on an n×n board
)

// MaxN bounds the sizes the notation accepts. It is a limit of the
// notation (a queens solution stores columns as bytes), not a promise that
// every accepted size can be enumerated.
const MaxN = 32

// A Puzzle is one member of a family, such as magic:4 or queens:8.
type Puzzle struct {
	Kind Kind
	N    int
}

// String returns the puzzle's notation, for example "queens:8".
func (p Puzzle) String() string { return fmt.Sprintf("%s:%d", p.Kind, p.N) }

// Len is the number of bytes in one stored solution: n² cells row by row for
// a magic square, one 0-based column per row for queens.
func (p Puzzle) Len() int {
	if p.Kind == Magic {
		return p.N * p.N
	}
	return p.N
}

// ErrNotation is wrapped by every error of the puzzle notation parsers.
var ErrNotation = errors.New("bad puzzle notation")

// ParsePuzzles reads "kind:N" or a range "kind:A-B" and returns the puzzles
// it names in increasing size.
func ParsePuzzles(text string) ([]Puzzle, error) {
	kindText, sizeText, ok := strings.Cut(strings.TrimSpace(text), ":")
	if !ok {
		return nil, fmt.Errorf("%w %q: write KIND:N or KIND:A-B, for example magic:4 or queens:1-14", ErrNotation, text)
	}
	kind := Kind(strings.ToLower(kindText))
	if kind != Magic && kind != Queens {
		return nil, fmt.Errorf("%w %q: unknown puzzle kind %q; use magic or queens", ErrNotation, text, kindText)
	}
	lowText, highText, isRange := strings.Cut(sizeText, "-")
	if isRange && lowText == "" { // queens:-1 is a size below 1, not a range
		lowText, isRange = sizeText, false
	}
	if !isRange {
		highText = lowText
	}
	low, err := parseSize(text, lowText)
	if err != nil {
		return nil, err
	}
	high, err := parseSize(text, highText)
	if err != nil {
		return nil, err
	}
	if low > high {
		return nil, fmt.Errorf("%w %q: range %d-%d runs backwards; write %s:%d-%d", ErrNotation, text, low, high, kind, high, low)
	}
	var out []Puzzle
	for n := low; n <= high; n++ {
		out = append(out, Puzzle{kind, n})
	}
	return out, nil
}

// ParsePuzzle reads exactly one puzzle, "kind:N".
func ParsePuzzle(text string) (Puzzle, error) {
	ps, err := ParsePuzzles(text)
	if err != nil {
		return Puzzle{}, err
	}
	if len(ps) != 1 {
		return Puzzle{}, fmt.Errorf("%w %q: name one size here, for example %s", ErrNotation, text, ps[0])
	}
	return ps[0], nil
}

func parseSize(whole, text string) (int, error) {
	n, err := strconv.Atoi(text)
	if err != nil || strings.HasPrefix(text, "+") {
		return 0, fmt.Errorf("%w %q: size %q is not a whole number; write for example queens:8", ErrNotation, whole, text)
	}
	if n < 1 || n > MaxN {
		return 0, fmt.Errorf("%w %q: size %d is out of range; sizes run from 1 to %d", ErrNotation, whole, n, MaxN)
	}
	return n, nil
}

// Check reports why sol is not a solution of p, or nil if it is one.
func (p Puzzle) Check(sol []byte) error {
	if len(sol) != p.Len() {
		return fmt.Errorf("%s solution has %d bytes, want %d", p, len(sol), p.Len())
	}
	n := p.N
	if p.Kind == Queens {
		for r := 0; r < n; r++ {
			if int(sol[r]) >= n {
				return fmt.Errorf("row %d: column %d is off the board", r+1, int(sol[r])+1)
			}
			for q := 0; q < r; q++ {
				d := int(sol[r]) - int(sol[q])
				if d == 0 || d == r-q || d == q-r {
					return fmt.Errorf("queens in rows %d and %d attack each other", q+1, r+1)
				}
			}
		}
		return nil
	}
	seen := make([]bool, n*n+1)
	for i, v := range sol {
		if v < 1 || int(v) > n*n || seen[v] {
			return fmt.Errorf("cell %d,%d: value %d is out of range or repeated", i/n+1, i%n+1, v)
		}
		seen[v] = true
	}
	want := n * (n*n + 1) / 2
	var diag, anti int
	for i := 0; i < n; i++ {
		var row, col int
		for j := 0; j < n; j++ {
			row += int(sol[i*n+j])
			col += int(sol[j*n+i])
		}
		if row != want {
			return fmt.Errorf("row %d sums to %d, want %d", i+1, row, want)
		}
		if col != want {
			return fmt.Errorf("column %d sums to %d, want %d", i+1, col, want)
		}
		diag += int(sol[i*n+i])
		anti += int(sol[i*n+n-1-i])
	}
	if diag != want || anti != want {
		return fmt.Errorf("diagonals sum to %d and %d, want %d", diag, anti, want)
	}
	return nil
}

// Apply writes the image of sol under s into dst (len(dst) == p.Len()).
// For a magic square, the value in cell (r,c) moves to s.Map(r,c). For queens,
// the queen on (r, sol[r]) moves to s.Map(r, sol[r]); the board's symmetries
// map placements to placements, so the image is again one queen per row.
func (p Puzzle) Apply(s Symmetry, dst, sol []byte) {
	n := p.N
	if p.Kind == Queens {
		for r := 0; r < n; r++ {
			r2, c2 := s.Map(n, r, int(sol[r]))
			dst[r2] = byte(c2)
		}
		return
	}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			r2, c2 := s.Map(n, r, c)
			dst[r2*n+c2] = sol[r*n+c]
		}
	}
}
