package enumerate

import (
	"math/bits"
	"sync/atomic"
)

// The toroidal count without a constraint cuts by every map of the torus
// that keeps its lines, not only the shifts of columns and the mirror:
//
//	(r, c) -> (u·r + a, ±u·c + b)   (mod n, u prime to n),
//
// 2·n²·φ(n) maps (the group G). Each takes rows to rows, columns to
// columns and broken diagonals to broken diagonals (the diagonal
// directions (1, ±1) go to (u, ±u)), so it takes a toroidal solution to a
// toroidal solution.
//
// Two queens whose rows differ by d prime to n have a slope, the
// difference of their columns over d (mod n); write |s| for the smaller of
// s and n-s. A map of G multiplies every slope by ±1, so |s| is kept, and
// the least |s| of a solution (2 or more: slopes 0 and ±1 are a shared
// column or diagonal) is its orbit's, call it k. Of an orbit's members,
// take the least in the order of the columns read row by row (the
// canonical one). Mapping any two queens of slope ±k to rows 0 and 1 and
// the first to column 0 gives a member that begins 0, k, and nothing
// begins lower, so the canonical member begins 0, k.
//
// So the count searches, for each k from 2 to (n-1)/2, the solutions that
// begin 0, k with no two queens at a |slope| under k (a mask of the
// columns a slope under k from the queens placed, for k of 3 or more; for
// k = 2 there is nothing to add). At each solution found it maps every
// pair of queens of slope ±k to rows 0 and 1 in turn: if one image is
// less, the solution is not canonical; the images equal to it are the maps
// that fix it, its stabiliser, so its orbit has |G| / |stabiliser|
// members, and it counts that many.
//
// Every orbit is counted once, at its canonical member, with all its
// members, so the count is exact. The search for k = 2 is the toroidal
// search with the first two rows fixed, about a (n-3)-th of the
// solutions with the first queen in column 0, against a half for the
// shift and the mirror alone; the searches for k >= 3 are far smaller.

// torusCut holds what the cut by G needs for queens:n.
type torusCut struct {
	n     int
	group int64         // |G|
	units []int         // the d in 1..n-1 prime to n
	inv   []int         // inv[d]: d's inverse mod n (0 when d is not prime to n)
	slope [][]int       // slope[d][c+n]: c·inv[d] mod n, the slope of a column difference c (-n < c < n) over d rows
	near  [3][128]int32 // slope[1] to slope[3], in arrays the search indexes without bounds checks
}

// newTorusCut gives the cut for queens:n, or nil when it does not apply:
// toroidal solutions exist only for n prime to 6 (Pólya), and the cut
// needs n of 5 or more.
func newTorusCut(n int) *torusCut {
	if n < 5 || n%2 == 0 || n%3 == 0 {
		return nil
	}
	t := &torusCut{n: n, inv: make([]int, n), slope: make([][]int, n)}
	for d := 1; d < n; d++ {
		for e := 1; e < n; e++ {
			if d*e%n == 1 {
				t.inv[d] = e
			}
		}
		if t.inv[d] == 0 {
			continue
		}
		t.units = append(t.units, d)
		t.slope[d] = make([]int, 2*n)
		for c := range 2 * n {
			t.slope[d][c] = c * t.inv[d] % n
		}
	}
	for d := 1; d <= 3; d++ {
		for c, s := range t.slope[d] {
			t.near[d-1][c] = int32(s)
		}
	}
	t.group = 2 * int64(n) * int64(n) * int64(len(t.units))
	return t
}

// slopeMask is the columns of row r that a queen of col (the columns of
// rows 0 to r-1) sees at a |slope| from 2 to k-1: those a search for least
// slope k leaves out.
func (t *torusCut) slopeMask(col []int8, r, k int) uint64 {
	n := t.n
	var m uint64
	for j, c := range col[:r] {
		d := r - j
		if t.inv[d] == 0 {
			continue // not prime to n: no slope
		}
		for s := 2; s < k; s++ {
			step := s * d % n
			m |= 1<<((int(c)+step)%n) | 1<<((int(c)-step+n)%n)
		}
	}
	return m
}

// weight is what the solution col (least slope k, beginning 0, k) counts:
// its orbit's size if it is its orbit's canonical member, else 0.
func (t *torusCut) weight(col []int8, k int) int64 {
	n := t.n
	fixing := int64(0)
	for i := range n {
		for _, d := range t.units {
			j := i + d
			if j >= n {
				j -= n
			}
			s := t.slope[d][int(col[j])-int(col[i])+n]
			if s != k && s != n-k {
				continue
			}
			// The image that takes rows i, i+d to rows 0, 1: its row r is
			// ±(col[i+r·d] - col[i])·inv[d].
			u := t.inv[d]
			if s != k {
				u = n - u
			}
			cmp, row := 0, j
			for r := 2; r < n && cmp == 0; r++ {
				if row += d; row >= n {
					row -= n
				}
				v := (int(col[row]) - int(col[i]) + n) * u % n
				switch {
				case v < int(col[r]):
					return 0
				case v > int(col[r]):
					cmp = 1
				}
			}
			if cmp == 0 {
				fixing++
			}
		}
	}
	return t.group / fixing
}

// searchTorus counts, weighed by weight, the toroidal completions of s
// from row row on under the cut by G, least slope k = s's row 1.
func (q *BoardCounter) searchTorus(row int, s boardState, stop *atomic.Bool) (count, nodes int64) {
	t := q.torus
	n := q.n
	all := uint64(1)<<n - 1
	last := n - 1
	k, c2 := int(s.col[1]), int(s.col[2]) // units fix 4 rows (prefixRows), n being 5 or more
	k32, nk32, c232 := int32(k), int32(n-k), int32(c2)
	col := s.col
	type frame struct{ free, cols, left, right uint64 }
	var stack [MaxBoardQueens]frame
	r := row
	stack[r] = frame{s.free(q, r), s.cols, s.left, s.right}
	for {
		f := &stack[r]
		if f.free == 0 {
			if r == row {
				return count, nodes
			}
			r--
			continue
		}
		bit := f.free & -f.free
		f.free ^= bit
		col[r] = int8(bits.TrailingZeros64(bit))
		if r == last {
			if w := t.weight(col[:n], k); w > 0 && q.filter != nil {
				count += t.members(col[:n], q.filter, q.restricted, w)
			} else {
				count += w
			}
			continue
		}
		// The maps that take rows r-2d, r-d, r (or r, r-d, r-2d) to rows
		// 0, 1, 2, for d = 1, 2, 3 (prime to n): if one takes the queens
		// placed below 0, k, c2, no completion of them is canonical. These
		// are quick to try (cuts, inlined; a loop over d costs a fifth
		// more) and cut the search by three.
		if r >= 2 {
			cr := int(col[r]) + n
			ci, cm := int(col[r-2]), int(col[r-1])
			if cuts(&t.near[0], cr-ci, cm-ci+n, cr-cm, 2*n, k32, nk32, c232) {
				continue
			}
			if r >= 4 {
				ci, cm = int(col[r-4]), int(col[r-2])
				if cuts(&t.near[1], cr-ci, cm-ci+n, cr-cm, 2*n, k32, nk32, c232) {
					continue
				}
			}
			if r >= 6 {
				ci, cm = int(col[r-6]), int(col[r-3])
				if cuts(&t.near[2], cr-ci, cm-ci+n, cr-cm, 2*n, k32, nk32, c232) {
					continue
				}
			}
		}
		if nodes++; nodes&pollMask == 0 && stop.Load() {
			return count, nodes
		}
		cols, l, rt := f.cols|bit, f.left|bit, f.right|bit
		l = (l<<1 | l>>(n-1)) & all
		rt = (rt>>1 | rt<<(n-1)) & all
		free := all &^ (cols | l | rt)
		if k > 2 && free != 0 {
			free &^= t.slopeMask(col[:], r+1, k)
		}
		if free == 0 {
			continue
		}
		r++
		stack[r] = frame{free, cols, l, rt}
	}
}

// cuts reports whether the map that takes rows i, m, r (d apart, sl
// being t.near[d-1]) or r, m, i to rows 0, 1, 2 takes the queens there
// below 0, k, c2 (nk = n-k). The columns ci, cm, cr come as differences:
// ri = cr-ci+n, mi = cm-ci+n, rm = cr-cm+n. Small enough to be inlined in
// the search's loop, and it stops at the first map that cuts.
func cuts(sl *[128]int32, ri, mi, rm, n2 int, k, nk, c2 int32) bool {
	up, down := sl[ri&127], sl[(n2-ri)&127]
	if s := sl[mi&127]; s == k && up < c2 || s == nk && down < c2 {
		return true
	}
	s := sl[rm&127]
	return s == k && up < c2 || s == nk && down < c2
}

// below reports whether a queen in column c of row r, with those of col
// in rows 0 to r-1, is cut by the maps searchTorus tries (for the units'
// rows and Knuth's estimate): those that take rows r-2d, r-d, r (or r,
// r-d, r-2d) to rows 0, 1, 2, for d = 1, 2, 3, if one takes them below 0,
// k, c2.
func (t *torusCut) below(col [MaxBoardQueens]int8, r, c int) bool {
	k, c2 := int32(col[1]), int32(col[2])
	col[r] = int8(c)
	for d := 1; d <= len(t.near) && 2*d <= r; d++ {
		ci, cm, cr := int(col[r-2*d]), int(col[r-d]), c+t.n
		if cuts(&t.near[d-1], cr-ci, cm-ci+t.n, cr-cm, 2*t.n, k, int32(t.n)-k, c2) {
			return true
		}
	}
	return false
}

// members is how many members of the orbit of col, which has size, meet
// the constraint allowed (by row, the columns allowed; restricted lists
// the rows that do not allow all). Each map g of G gives a member, each
// member from |G|/size maps. The member g·col has
// its queen of row ρ in column e·u·col[r] + b, where r = (ρ - a)/u: for
// each u, e and a the shifts b that meet every restricted row are a mask,
// the AND of the rows' allowed columns turned back by e·u·col[r].
func (t *torusCut) members(col []int8, allowed []uint64, restricted []int, size int64) int64 {
	n := t.n
	all := uint64(1)<<n - 1
	var maps int64
	for _, u := range t.units {
		ui := t.inv[u]
		for _, e := range [2]int{u, n - u} {
			for a := range n {
				ok := all
				for _, rho := range restricted {
					r := (rho - a + n) * ui % n
					x := e * int(col[r]) % n // b must put column x + b in allowed[rho]
					m := allowed[rho] & all
					ok &= (m>>x | m<<(n-x)) & all
				}
				maps += int64(bits.OnesCount64(ok))
			}
		}
	}
	return maps * size / t.group
}
