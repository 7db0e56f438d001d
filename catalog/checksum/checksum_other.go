//go:build !amd64

package checksum

const haveLong = false

func hashLong(p *byte, n int) uint64 { panic("not reached: haveLong is false") }
