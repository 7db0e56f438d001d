// Package solve is the one door of the query packages to the solvers
// (package enumerate): the constraint a filter's fixed cells make, the keys
// the answers of its counts are kept under, the constrained and board
// counters cut into units that are saved and resumed, the time a count
// should take, the estimates, and the reach of each. The planner (package
// query) and the checks (query/verify) ask it, never enumerate itself.
package solve

import (
	"math"
	"time"

	"solcat/enumerate"
)

// The reach of the solvers.
const (
	// MaxCountedMagic is the largest magic square counted whole.
	MaxCountedMagic = enumerate.MaxCountedMagic
	// MaxCountedQueens is the largest queens board counted whole.
	MaxCountedQueens = enumerate.MaxCountedQueens
	// MaxConstrainedQueens is the largest queens board counted under a
	// filter, by the board counters, or estimated.
	MaxConstrainedQueens = enumerate.MaxConstrainedQueens
	// MinSplitQueens is the smallest queens board whose constrained counts
	// cut the board where the filter makes the work least, rather than in
	// the middle: from it on, a filter is counted with no record of the
	// puzzle.
	MinSplitQueens = enumerate.MinSplitQueens
)

// searchProbes is how many of Knuth's probes judge each unit of a search
// of units units: 16384 over all of them, at least 16 a unit.
func searchProbes(units int) int { return max(16, 16384/max(1, units)) }

// searchTime is how long a search of nodes takes at rate nodes a second
// on one core, on workers goroutines: no more of them than units, each
// unit counted by one (at most LongestSearch).
func searchTime(nodes, rate float64, workers, units int) time.Duration {
	rate *= float64(max(1, min(workers, units)))
	return time.Duration(math.Min(nodes/rate, LongestSearch.Seconds()) * float64(time.Second))
}

// LongestSearch is the longest time a search is judged to take: 250
// years, past any count run and short of time.Duration's limit.
const LongestSearch = 250 * 365 * 24 * time.Hour
