package builder

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"solcat/enumerate"
)

// Shard is part I of a build split in K (1-based); the zero Shard is the
// whole build. A count-only shard counts the work units whose index modulo
// K is I-1 (round robin, so every shard gets a like share of easy and hard
// units); a stored queens shard stores the solutions whose first-row queen
// is in the I-th of K near-equal ranges of columns.
type Shard struct{ I, Of int }

// ErrBadShard means a shard is not written I/K with 1 <= I <= K.
var ErrBadShard = errors.New("a shard is written I/K with 1 <= I <= K")

// ParseShard reads I/K; the empty text is the whole build.
func ParseShard(text string) (Shard, error) {
	if text == "" {
		return Shard{}, nil
	}
	a, b, ok := strings.Cut(text, "/")
	i, err1 := strconv.Atoi(a)
	k, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || k < 1 || k > 100000 || i < 1 || i > k {
		return Shard{}, fmt.Errorf("%q: %w (K at most 100000), for example 2/4", text, ErrBadShard)
	}
	return Shard{i, k}, nil
}

// Has reports whether a count-only shard counts the given work unit.
func (s Shard) Has(unit int) bool { return s.Of == 0 || unit%s.Of == s.I-1 }

func (s Shard) String() string {
	if s.Of == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.I, s.Of)
}

// label is " shard I/K", or nothing for the whole build.
func (s Shard) label() string {
	if s.Of == 0 {
		return ""
	}
	return " shard " + s.String()
}

// FirstRows is the range of first-row columns a stored queens shard
// holds: the I-th of K near-equal ranges of the n columns.
func (s Shard) FirstRows(n int) enumerate.FirstRows {
	if s.Of == 0 {
		return enumerate.FirstRows{From: 0, To: n}
	}
	return enumerate.FirstRows{From: (s.I - 1) * n / s.Of, To: s.I * n / s.Of}
}
