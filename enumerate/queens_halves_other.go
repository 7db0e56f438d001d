//go:build !amd64

package enumerate

// vectorMatch tells whether the halves counter's loops run on vectors of
// 512 bits.
const vectorMatch = false

// matchBottoms is matchBottomsGo.
func matchBottoms(table []uint64, w, chunks, chunkBits int, bottoms []uint64, _ bool) int64 {
	return matchBottomsGo(table, w, chunks, chunkBits, bottoms)
}

// joinHalves is joinHalvesGo.
func joinHalves(dst []uint64, b *halvesBlocks, splits []int32, _ int64, midKey uint64, _ bool, _ *[]uint64) []uint64 {
	return joinHalvesGo(dst, b, splits, midKey)
}

// chunkTables is chunkTablesGo.
func chunkTables(table, notHave []uint64, tops, w, chunks, chunkBits int, _ bool) {
	chunkTablesGo(table, notHave, tops, w, chunks, chunkBits)
}

// cleanTops is cleanTopsGo.
func cleanTops(dst, halves []uint64, lay keyLayout, _ bool) int {
	return cleanTopsGo(dst, halves, lay)
}

// topsBitsets is topsBitsetsGo.
func topsBitsets(notHave []uint64, w, bytes int, tops []uint64, n int, _ bool) {
	topsBitsetsGo(notHave, w, bytes, tops, n)
}
