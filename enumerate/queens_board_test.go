package enumerate

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"solcat/canon"
)

// plainBoard counts the solutions of queens:n with prop under c (nil: no
// constraint), and their classes by orbit size, by plainBoardEach.
// TestBoardCountersDeepUnits asks the same boards again, with the same
// seeds: each is searched once.
func plainBoard(prop canon.Property, n int, c *QueensConstraint) (solutions int64, orbits [9]int64) {
	key := fmt.Sprint(prop, n, c != nil)
	if c != nil {
		key += fmt.Sprint(c.Allowed)
	}
	plainBoards.Lock()
	got, ok := plainBoards.m[key]
	plainBoards.Unlock()
	if ok {
		return got.solutions, got.orbits
	}
	defer func() {
		plainBoards.Lock()
		plainBoards.m[key] = plainCount{solutions, orbits}
		plainBoards.Unlock()
	}()
	var members [9]int64
	plainBoardEach(prop, n, c, func(sol []byte) {
		solutions++
		members[canon.QueensOrbit(sol)]++
	})
	for o, m := range members {
		if m > 0 {
			orbits[o] = m / int64(o)
		}
	}
	return solutions, orbits
}

type plainCount struct {
	solutions int64
	orbits    [9]int64
}

var plainBoards = struct {
	sync.Mutex
	m map[string]plainCount
}{m: map[string]plainCount{}}

// plainBoardEach hands each solution of queens:n with prop under c (nil:
// no constraint) to emit (valid during the call), found by plain array
// backtracking that tests each new queen against every queen placed, pair
// by pair, with the rules written out: the board counters share no code
// and no bit trick with it.
func plainBoardEach(prop canon.Property, n int, c *QueensConstraint, emit func(sol []byte)) {
	sol := make([]byte, n)
	var place func(r int)
	place = func(r int) {
		if r == n {
			emit(sol)
			return
		}
	next:
		for col := 0; col < n; col++ {
			if c != nil && c.Allowed[r]&(1<<col) == 0 {
				continue
			}
			for q := 0; q < r; q++ {
				dr, dc := r-q, col-int(sol[q])
				switch {
				case dc == 0, dc == dr, dc == -dr:
					continue next
				case prop == canon.Toroidal && ((dr-dc)%n == 0 || (dr+dc)%n == 0):
					continue next
				case prop == canon.Superqueen && (dr == 1 && (dc == 2 || dc == -2) || dr == 2 && (dc == 1 || dc == -1)):
					continue next
				}
			}
			sol[r] = byte(col)
			place(r + 1)
		}
	}
	place(0)
}

var boardProps = []canon.Property{canon.Toroidal, canon.Superqueen}

// TestBoardCountersAgainstSearch counts the toroidal and superqueen
// solutions of queens:1 to 13 and their classes by orbit size, and
// compares them with the plain search and the published counts
// (A051906; A051223, A051224, A352661), on one and on two workers.
func TestBoardCountersAgainstSearch(t *testing.T) {
	for _, prop := range boardProps {
		for n := 1; n <= 13; n++ {
			t.Run(fmt.Sprintf("%s/%d", prop, n), func(t *testing.T) {
				solutions, orbits := plainBoard(prop, n, nil)
				known, _ := canon.KnownWithProperty(canon.Puzzle{Kind: canon.Queens, N: n}, prop)
				if solutions != known.Solutions {
					t.Errorf("the plain search finds %d, OEIS %d", solutions, known.Solutions)
				}
				for _, workers := range []int{1, 2} {
					got, err := countBoard(context.Background(), prop, n, workers, nil)
					if err != nil {
						t.Fatal(err)
					}
					if got.Solutions() != solutions || got.Orbits != orbits {
						t.Errorf("%d workers: %d solutions, orbits %v; the plain search %d, %v", workers, got.Solutions(), got.Orbits, solutions, orbits)
					}
					if known.Classes >= 0 && got.Classes() != known.Classes || known.Orbits != [9]int64{} && got.Orbits != known.Orbits {
						t.Errorf("%d classes, orbits %v; OEIS %d, %v", got.Classes(), got.Orbits, known.Classes, known.Orbits)
					}
				}
			})
		}
	}
}

// TestBoardCountersPublished counts larger boards against the published
// counts: toroidal queens:15 to 19 and superqueens 15 and 16 here (under
// a second on 2 cores), with SOLCAT_LONG=1 up to SOLCAT_BOARD_MAX (default
// toroidal 23, superqueen 18, some 110 and 30 core-seconds; the published
// counts go to 34 and 26).
func TestBoardCountersPublished(t *testing.T) {
	long := os.Getenv("SOLCAT_LONG") != "" && !testing.Short()
	limit := map[canon.Property]int{canon.Toroidal: 19, canon.Superqueen: 16}
	if long {
		limit = map[canon.Property]int{canon.Toroidal: 23, canon.Superqueen: 18}
		if m, err := strconv.Atoi(os.Getenv("SOLCAT_BOARD_MAX")); err == nil {
			limit = map[canon.Property]int{canon.Toroidal: m, canon.Superqueen: m}
		}
	}
	for _, prop := range boardProps {
		for n := 15; n <= limit[prop]; n++ {
			known, ok := canon.KnownWithProperty(canon.Puzzle{Kind: canon.Queens, N: n}, prop)
			if !ok {
				continue
			}
			t.Run(fmt.Sprintf("%s/%d", prop, n), func(t *testing.T) {
				start := time.Now()
				got, err := countBoard(context.Background(), prop, n, 0, nil)
				if err != nil {
					t.Fatal(err)
				}
				if got.Solutions() != known.Solutions || known.Classes >= 0 && got.Classes() != known.Classes ||
					known.Orbits != [9]int64{} && got.Orbits != known.Orbits {
					t.Errorf("%d solutions, %d classes, orbits %v; OEIS %d, %d, %v",
						got.Solutions(), got.Classes(), got.Orbits, known.Solutions, known.Classes, known.Orbits)
				}
				t.Logf("%d solutions, %d classes (orbits %v), %d nodes, %.2f s", got.Solutions(), got.Classes(), got.Orbits, got.Nodes, time.Since(start).Seconds())
			})
		}
	}
}

// TestBoardCountersConstrained counts under random constraints (squares
// with a queen or empty, and some that are their own mirror image, which
// the superqueen counter cuts by) and compares with the plain search.
func TestBoardCountersConstrained(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 7))
	for _, prop := range boardProps {
		for n := 5; n <= 13; n++ {
			for i := range 6 {
				c := randomConstraint(rng, n)
				if i%3 == 0 { // its own mirror image
					c = NewQueensConstraint(n)
					r, col := rng.IntN(n), rng.IntN(n)
					c.Empty(r, col)
					c.Empty(r, n-1-col)
				}
				t.Run(fmt.Sprintf("%s/%d/%d", prop, n, i), func(t *testing.T) {
					q, err := NewBoardCounter(prop, c)
					if err != nil {
						t.Fatal(err)
					}
					got, err := CountBoardConstrained(context.Background(), prop, c, 1+i%2, nil)
					if err != nil {
						t.Fatal(err)
					}
					if want, _ := plainBoard(prop, n, &c); got != want {
						t.Errorf("under %x (%s): %d, the plain search %d", c.Allowed, q.Method(), got, want)
					}
				})
			}
		}
	}
}

// TestBoardCountersStop stops counts that take minutes and checks that
// they end within a second of their context, with its error.
func TestBoardCountersStop(t *testing.T) {
	for _, tc := range []struct {
		prop canon.Property
		n    int
	}{{canon.Toroidal, 25}, {canon.Superqueen, 22}} {
		t.Run(tc.prop.String(), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			start := time.Now()
			_, err := countBoard(ctx, tc.prop, tc.n, 2, nil)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("err %v, want the deadline's", err)
			}
			if took := time.Since(start); took > time.Second+100*time.Millisecond {
				t.Errorf("stopped after %v", took)
			}
		})
	}
}

// TestBoardCounterKeys checks that the units' keys differ and end with the
// fixed solutions' unit, and that sizes past the counters are refused.
func TestBoardCounterKeys(t *testing.T) {
	q, err := NewBoardCounter(canon.Superqueen, NewQueensConstraint(12))
	if err != nil {
		t.Fatal(err)
	}
	keys := q.Keys()
	seen := map[string]bool{}
	for _, k := range keys {
		if seen[string(k)] {
			t.Errorf("key %q twice", k)
		}
		seen[string(k)] = true
	}
	if len(keys) != len(q.Units())+1 || string(keys[len(keys)-1]) != "S\x0cF" {
		t.Errorf("%d keys for %d units, the last %q", len(keys), len(q.Units()), keys[len(keys)-1])
	}
	if _, err := CountSuperqueens(context.Background(), MaxSuperqueens+1, 1, nil); err == nil {
		t.Error("a superqueen count past MaxSuperqueens")
	}
	if _, err := NewBoardCounter(canon.Asymmetric, NewQueensConstraint(8)); err == nil {
		t.Error("a board counter for the asymmetric property")
	}
}

// TestBoardCountersDeepUnits runs the board counters' tests with units
// that fix one row more, as the largest sizes' do (deepUnitsFrom), on the
// sizes the plain search checks.
func TestBoardCountersDeepUnits(t *testing.T) {
	was := deepUnitsFrom
	deepUnitsFrom = map[canon.Property]int{canon.Toroidal: 0, canon.Superqueen: 0}
	t.Cleanup(func() { deepUnitsFrom = was })
	t.Run("against the search", TestBoardCountersAgainstSearch)
	t.Run("constrained", TestBoardCountersConstrained)
	t.Run("torus filter", TestTorusFilter)
	t.Run("orbits", TestTorusCutOrbits)
}
