//go:build !amd64

package enumerate

// vectorMatch tells whether the halves counter's loops run on vectors of
// 512 bits.
const vectorMatch = false

// matchBottoms is matchBottomsGo.
func matchBottoms(t *matchTable, bottoms []uint64, _ bool) int64 {
	return matchBottomsGo(t, bottoms)
}

// joinReadAhead: joinHalvesGo reads no further than the splits.
const joinReadAhead = 0

// joinHalves is joinHalvesGo.
func joinHalves(dst []uint64, b *halvesBlocks, splits []int32, _ int64, midKey uint64, _ bool, _ *[]uint64) []uint64 {
	return joinHalvesGo(dst, b, splits, midKey)
}

// chunkTables is chunkTablesGo.
func chunkTables(t *matchTable, notHave, valid []uint64, _ bool) {
	chunkTablesGo(t, notHave, valid)
}

// cleanTops is cleanTopsGo.
func cleanTops(dst, halves []uint64, lay keyLayout, cuts [2]uint64, room int, _ bool) [4]int {
	return cleanTopsGo(dst, halves, lay, cuts, room)
}

// topsBitsets is topsBitsetsGo.
func topsBitsets(notHave []uint64, w, bytes int, tops []uint64, n int, _ bool) {
	topsBitsetsGo(notHave, w, bytes, tops, n)
}

// orKeys is orKeysGo.
func orKeys(halves []uint64, _ bool) (all, clean uint64) { return orKeysGo(halves) }

// vectorChunks: there are no vector loops here.
const (
	minVectorChunks, maxVectorChunks = 0, 0
	minVectorBits, maxVectorBits     = 0, 0
)

// splitTops is splitTopsGo.
func splitTops(dst, tops []uint64, cut1, cut2 uint64, room int, _ bool) [4]int {
	return splitTopsGo(dst, tops, [2]uint64{cut1, cut2}, room)
}

// matchDirect is matchDirectGo.
func matchDirect(tops, bottoms []uint64, _ bool) int64 { return matchDirectGo(tops, bottoms) }
