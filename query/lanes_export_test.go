package query

import "encoding/binary"

// EqualLanesForTest is equalLanes on a word given as its 8 lanes, for the
// tests of package query_test.
func EqualLanesForTest(w [8]byte, v byte) (out [8]bool) {
	m := equalLanes(binary.LittleEndian.Uint64(w[:]), v)
	for i := range out {
		out[i] = m>>(8*i+7)&1 == 1
	}
	return out
}
