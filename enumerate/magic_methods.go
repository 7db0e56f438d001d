package enumerate

import (
	"context"
	"fmt"
	"math/bits"
)

func checkMagicOrder(n int) error {
	if n < 1 || n > MaxMagicOrder {
		return fmt.Errorf("this method runs on orders 1 to %d, not %d", MaxMagicOrder, n)
	}
	return nil
}

// magicCellDFS is the plain search: cells in row-major order, the last cell
// of each row and the last cell of the anti-diagonal forced by their sums,
// partial column and diagonal sums kept at or below the magic constant.
// (The seed never checks the main diagonal; it is checked here at the end.)
func magicCellDFS(ctx context.Context, n int, emit Emit) (Stats, error) {
	if err := checkMagicOrder(n); err != nil {
		return Stats{}, err
	}
	S := n * (n*n + 1) / 2
	grid := make([]byte, n*n)
	used := make([]bool, n*n+1)
	colSum := make([]int, n)
	var st Stats
	var err error
	var fill func(pos int)
	try := func(pos, v int) {
		r, c := pos/n, pos%n
		if v < 1 || v > n*n || used[v] {
			return
		}
		cs := colSum[c] + v
		if cs > S || (r == n-1 && cs != S) {
			return
		}
		if r == c {
			d := v
			for i := 0; i < r; i++ {
				d += int(grid[i*n+i])
			}
			if d > S || (r == n-1 && d != S) {
				return
			}
		}
		st.Nodes++
		grid[pos], used[v], colSum[c] = byte(v), true, cs
		fill(pos + 1)
		used[v], colSum[c] = false, cs-v
	}
	fill = func(pos int) {
		if err != nil {
			return
		}
		if pos == n*n {
			st.Solutions++
			if emit != nil {
				err = emit(grid)
			}
			return
		}
		r, c := pos/n, pos%n
		switch {
		case c == n-1:
			row := 0
			for j := 0; j < n-1; j++ {
				row += int(grid[r*n+j])
			}
			try(pos, S-row)
		case r == n-1 && c == 0:
			anti := 0
			for i := 0; i < n-1; i++ {
				anti += int(grid[i*n+n-1-i])
			}
			try(pos, S-anti)
		default:
			for v := 1; v <= n*n; v++ {
				try(pos, v)
			}
		}
	}
	fill(0)
	return st, err
}

// magicRowSets is a divide and conquer: choose for each row a set
// of n unused numbers summing to the magic constant, then try every order
// of each row. The last row's order is forced here by the column sums.
func magicRowSets(ctx context.Context, n int, emit Emit) (Stats, error) {
	if err := checkMagicOrder(n); err != nil {
		return Stats{}, err
	}
	S := n * (n*n + 1) / 2
	// Every n-subset of 1..n² with sum S, as a bitmask of values.
	var sets []uint32
	var choose func(next, left, sum int, set uint32)
	choose = func(next, left, sum int, set uint32) {
		if left == 0 {
			if sum == S {
				sets = append(sets, set)
			}
			return
		}
		for v := next; v <= n*n; v++ {
			choose(v+1, left-1, sum+v, set|1<<v)
		}
	}
	choose(1, n, 0, 0)

	grid := make([]byte, n*n)
	colSum := make([]int, n)
	var st Stats
	var err error
	var rows func(r int, used uint32)
	// permute places the values of set into row r in every order.
	var permute func(r, c int, set, used uint32)
	permute = func(r, c int, set, used uint32) {
		if c == n {
			rows(r+1, used)
			return
		}
		for rest := set; rest != 0; rest &= rest - 1 {
			v := bits.TrailingZeros32(rest)
			st.Nodes++
			grid[r*n+c] = byte(v)
			colSum[c] += v
			permute(r, c+1, set&^(1<<v), used)
			colSum[c] -= v
		}
	}
	rows = func(r int, used uint32) {
		if err != nil {
			return
		}
		if r == n-1 {
			// The last row holds the values the columns still need.
			var need uint32
			for c := 0; c < n; c++ {
				v := S - colSum[c]
				if v < 1 || v > n*n || used&(1<<v) != 0 || need&(1<<v) != 0 {
					return
				}
				need |= 1 << v
				grid[r*n+c] = byte(v)
			}
			st.Nodes++
			diag, anti := 0, 0
			for i := 0; i < n; i++ {
				diag += int(grid[i*n+i])
				anti += int(grid[i*n+n-1-i])
			}
			if diag == S && anti == S {
				st.Solutions++
				if emit != nil {
					err = emit(grid)
				}
			}
			return
		}
		for _, set := range sets {
			if set&used == 0 {
				permute(r, 0, set, used|set)
			}
		}
	}
	if n == 1 {
		st.Solutions, st.Nodes = 1, 1
		if emit != nil {
			err = emit([]byte{1})
		}
		return st, err
	}
	rows(0, 0)
	return st, err
}
