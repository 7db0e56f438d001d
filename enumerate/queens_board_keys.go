package enumerate

import (
	"math/bits"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"time"

	"solcat/canon"
)

// Kept answers and saved units of the board counters are keyed by the
// property, an orbit size (0: any) and the question of the constraint (see
// QueensConstraint.Question; a leading 'U' marks one counted up to
// symmetry): 'P', the property's initial ('T' toroidal, 'S' superqueen),
// then 'O' and the orbit size if one is asked, then the question.

// BoardKey is the key of the count of the solutions with prop, of orbit
// size orbit (0: any), that meet the constraint whose question is question.
func BoardKey(prop canon.Property, orbit int, question []byte) []byte {
	key := []byte{'P', boardInitial(prop)}
	if orbit != 0 {
		key = append(key, 'O', byte(orbit))
	}
	return append(key, question...)
}

// ParseBoardKey reads a key BoardKey wrote; ok is false for other keys.
func ParseBoardKey(key []byte) (prop canon.Property, orbit int, question []byte, ok bool) {
	if len(key) < 2 || key[0] != 'P' {
		return 0, 0, nil, false
	}
	switch key[1] {
	case 'T':
		prop = canon.Toroidal
	case 'S':
		prop = canon.Superqueen
	default:
		return 0, 0, nil, false
	}
	rest := key[2:]
	if len(rest) >= 2 && rest[0] == 'O' {
		orbit, rest = int(rest[1]), rest[2:]
	}
	return prop, orbit, rest, true
}

func boardInitial(prop canon.Property) byte {
	if prop == canon.Toroidal {
		return 'T'
	}
	return 'S'
}

// Fixed reports whether the counter has the unit of the solutions turns
// fix (the last of Keys): without a constraint.
func (q *BoardCounter) Fixed() bool { return q.fixed }

// SearchNodes estimates the nodes the search units visit (placements
// below the units' prefixes, as ClassCounts.Nodes counts them), by Knuth's
// random probes: probes per unit, at most 16,384 units sampled, spread
// evenly, each standing for the units around it. The same seed gives the
// same estimate.
func (q *BoardCounter) SearchNodes(probes int, seed uint64) float64 {
	units := len(q.units)
	if units == 0 {
		return 0
	}
	sampled := min(units, 16384)
	rng := rand.New(rand.NewPCG(seed, 0))
	var sum float64
	for i := range sampled {
		u := q.units[i*units/sampled]
		var s boardState
		for _, c := range u.Prefix {
			s = s.place(q, int(c))
		}
		var unit float64
		for range probes {
			w, st := 1.0, s
			for r := len(u.Prefix); r < q.n-1; r++ {
				free := st.free(q, r)
				k := bits.OnesCount64(free)
				if k == 0 {
					break
				}
				w *= float64(k)
				unit += w
				pick := rng.IntN(k)
				for range pick {
					free &= free - 1
				}
				st = st.place(q, bits.TrailingZeros64(free))
			}
		}
		sum += unit / float64(probes)
	}
	return sum * float64(units) / float64(sampled)
}

// BoardSearchRate measures how many nodes a second the board counter of
// prop visits on one core: the median of five runs of about 5 ms over the
// units of queens:19 (toroidal) or 13 (superqueen), taken in turn, so that
// it is the speed the machine gives now. The larger boards' searches run
// at about the same speed a node (docs/performance.md: 80 to 104 million a
// CPU second from N=15 to 25); smaller toroidal boards' run faster.
func BoardSearchRate(prop canon.Property) float64 {
	n := 13
	if prop == canon.Toroidal {
		n = 19 // the cut by the torus's maps leaves queens:17 units too small to time
	}
	q, err := NewBoardCounter(prop, NewQueensConstraint(n))
	if err != nil || len(q.units) == 0 {
		return 1e8
	}
	var stop atomic.Bool
	var rates []float64
	next := 0
	for range 5 {
		start := time.Now()
		var nodes int64
		for time.Since(start) < 5*time.Millisecond {
			_, k := q.countUnit(q.units[next], &stop)
			nodes += k
			next = (next + 1) % len(q.units)
		}
		rates = append(rates, float64(max(nodes, 1))/time.Since(start).Seconds())
	}
	slices.Sort(rates)
	return rates[2]
}
