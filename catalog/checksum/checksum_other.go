//go:build !amd64

package checksum

const haveLong = false

func accumulate(acc *[8]uint64, p *byte, n int, key *byte) { panic("not reached: haveLong is false") }
