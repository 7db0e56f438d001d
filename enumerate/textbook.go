package enumerate

// TextbookQueens is the textbook counter kept as the speed baseline: bitmask
// backtracking (three integers for the columns and the two diagonals), with
// the first-row queen only on the left half and the count doubled, plus the
// middle column once when n is odd. One goroutine.
func TextbookQueens(n int) Stats {
	all := uint32(1)<<n - 1
	var st Stats
	var place func(left, down, right uint32)
	place = func(left, down, right uint32) {
		if down == all {
			st.Solutions++
			return
		}
		free := all &^ (left | down | right)
		for free != 0 {
			bit := free & -free
			free ^= bit
			st.Nodes++
			place((left|bit)<<1&all, down|bit, (right|bit)>>1)
		}
	}
	for c := 0; c < n/2; c++ {
		bit := uint32(1) << c
		st.Nodes++
		place(bit<<1&all, bit, bit>>1)
	}
	st.Solutions *= 2
	if n%2 == 1 {
		half := st.Solutions
		st.Solutions = 0
		bit := uint32(1) << (n / 2)
		st.Nodes++
		place(bit<<1&all, bit, bit>>1)
		st.Solutions += half
	}
	return st
}
