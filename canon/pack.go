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
