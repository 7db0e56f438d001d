package canon

import "encoding/binary"

// Order-5 magic squares are stored as classes only, 275,305,224 of them, so
// their canonical forms are packed: 5 bits a cell (the value minus 1), most
// significant first, 125 bits in 16 bytes. Packed forms compare, as bytes or
// as (Hi, Lo) pairs, in the same order as the squares themselves.

// Packed25 is a packed 5×5 square: Hi holds cells 0-11 and the top bit of
// cell 12, Lo the rest.
type Packed25 struct{ Hi, Lo uint64 }

// Pack25 packs 25 cells of values 1 to 32.
func Pack25(cells *[25]byte) Packed25 {
	var hi, lo uint64
	for i := 0; i < 12; i++ {
		hi = hi<<5 | uint64(cells[i]-1)
	}
	c12 := uint64(cells[12] - 1)
	for i := 13; i < 25; i++ {
		lo = lo<<5 | uint64(cells[i]-1)
	}
	return Packed25{Hi: hi<<4 | c12>>1, Lo: c12&1<<63 | lo<<3}
}

// Unpack25 is the inverse of Pack25.
func Unpack25(p Packed25, cells *[25]byte) {
	hi := p.Hi >> 4
	for i := 11; i >= 0; i-- {
		cells[i] = byte(hi&31) + 1
		hi >>= 5
	}
	cells[12] = byte(p.Hi&15<<1|p.Lo>>63) + 1
	lo := p.Lo >> 3
	for i := 24; i >= 13; i-- {
		cells[i] = byte(lo&31) + 1
		lo >>= 5
	}
}

// Less orders packed squares as their cells.
func (p Packed25) Less(q Packed25) bool { return p.Hi < q.Hi || p.Hi == q.Hi && p.Lo < q.Lo }

// Bytes returns the 16 bytes stored, big-endian.
func (p Packed25) Bytes() []byte {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(make([]byte, 0, 16), p.Hi), p.Lo)
}

// Packed25From reads 16 stored bytes; ok is false if there are not 16.
func Packed25From(b []byte) (p Packed25, ok bool) {
	if len(b) != 16 {
		return p, false
	}
	return Packed25{Hi: binary.BigEndian.Uint64(b), Lo: binary.BigEndian.Uint64(b[8:])}, true
}

// Queens stored as classes only (queens:18 has 83,263,591 classes) pack
// their canonical forms 5 bits a row (the 0-based column), most significant
// first, in QueensPackedLen(n) bytes: 12 for queens:18 and queens:19.
// Packed forms compare as bytes in the same order as the placements.

// MaxPackedQueens is the largest board a packed form holds: 5 bits a row
// in 128 bits.
const MaxPackedQueens = 25

// QueensPackedLen is the length of a packed queens:n form.
func QueensPackedLen(n int) int { return (5*n + 7) / 8 }

// PackQueens appends the packed form of q (0-based columns, below 32; at
// most MaxPackedQueens rows) to dst.
func PackQueens(dst, q []byte) []byte {
	var hi, lo uint64
	for _, c := range q {
		hi = hi<<5 | lo>>59
		lo = lo<<5 | uint64(c&31)
	}
	// The 5n bits sit at the bottom of (hi, lo): move them to the top.
	switch k := uint(128 - 5*len(q)); {
	case k >= 64:
		hi, lo = lo<<(k-64), 0
	case k > 0:
		hi, lo = hi<<k|lo>>(64-k), lo<<k
	}
	var buf [16]byte
	binary.BigEndian.PutUint64(buf[:8], hi)
	binary.BigEndian.PutUint64(buf[8:], lo)
	return append(dst, buf[:QueensPackedLen(len(q))]...)
}

// UnpackQueens fills q (its length is the board's size) from a packed form.
func UnpackQueens(packed, q []byte) {
	var buf [16]byte
	copy(buf[:], packed)
	hi, lo := binary.BigEndian.Uint64(buf[:8]), binary.BigEndian.Uint64(buf[8:])
	for i := range q {
		q[i] = byte(hi >> 59)
		hi, lo = hi<<5|lo>>59, lo<<5
	}
}
