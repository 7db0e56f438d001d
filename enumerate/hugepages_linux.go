package enumerate

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// hugeSlice makes a slice of n elements, backed by huge pages if the
// kernel backs any with them when asked (transparent huge pages in madvise
// mode): the halves counter reads its blocks of rows at random, and with
// small pages most reads of a block of several megabytes miss the TLB. A
// large slice is made up to 2 MB longer, to start on a huge page.
func hugeSlice[T uint64 | uint32 | int32](n int) []T {
	const huge = 2 << 20
	size := int(unsafe.Sizeof(T(0)))
	if n*size < huge/2 {
		return make([]T, n)
	}
	whole := make([]T, n+huge/size)
	// The whole allocation as bytes: the huge pages advised lie inside it.
	raw := unsafe.Slice((*byte)(unsafe.Pointer(&whole[0])), len(whole)*size)
	start := uintptr(unsafe.Pointer(&raw[0]))
	skip := int((start+huge-1)&^(huge-1) - start)
	s := whole[skip/size : skip/size+n : skip/size+n]
	if pages := (len(raw) - skip) &^ (huge - 1); pages > 0 {
		_ = unix.Madvise(raw[skip:skip+pages], unix.MADV_HUGEPAGE)
	}
	return s
}
