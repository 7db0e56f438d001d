//go:build !amd64

package enumerate

// vectorMatch tells whether matchBottoms runs on vectors of 512 bits.
const vectorMatch = false

// matchBottoms is matchBottomsGo.
func matchBottoms(table []uint64, w, chunkBits int, bottoms []uint64) int64 {
	return matchBottomsGo(table, w, chunkBits, bottoms)
}
