//go:build !amd64

package query

// packedVector: the vector compare is written for amd64 only.
const packedVector = false

func packedSumAVX512(*byte, int, int, *packedVec, uint64) (hits, matched int64) {
	panic("packedSumAVX512 without AVX-512")
}

func packedHitsAVX512(*byte, int, int, *packedVec, uint64, *uint32) int {
	panic("packedHitsAVX512 without AVX-512")
}

const packedLanes = false

func packedSumLanes(*byte, int, int, *laneConsts, int) (hits, matched int64) {
	panic("packedSumLanes without AVX-512")
}
