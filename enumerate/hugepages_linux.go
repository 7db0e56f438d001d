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
func hugeSlice[T uint64 | int32](n int) []T {
	const huge = 2 << 20
	size := int(unsafe.Sizeof(T(0)))
	if n*size < huge/2 {
		return make([]T, n)
	}
	s := make([]T, n+huge/size)
	start := uintptr(unsafe.Pointer(&s[0]))
	skip := int(((start+huge-1)&^(huge-1) - start) / uintptr(size))
	s = s[skip : skip+n : skip+n]
	_ = unix.Madvise(unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), (n*size+huge-1)&^(huge-1)), unix.MADV_HUGEPAGE)
	return s
}
