//go:build !linux

package enumerate

// hugeSlice makes a slice of n elements.
func hugeSlice[T uint64 | uint32 | int32](n int) []T { return make([]T, n) }
