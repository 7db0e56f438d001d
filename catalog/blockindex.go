package catalog

import (
	"encoding/binary"
	"fmt"

	"github.com/zeebo/xxh3"

	"solcat/catalog/checksum"
)

// The block index of a puzzle stored solution by solution (block layout
// 3) lies apart from its blocks, in a table of its own read first and
// whole: what a scan needs to decide whether a block can match (its first
// ID, its solutions, its synopsis) and the checksums of what it reads, a
// few percent of the blocks' bytes. A scan reads the pages of only the
// blocks that may match, and checks each run of bytes it reads against its
// checksum as it reads it.
//
// A row of the index is a group of consecutive blocks (up to a page's
// worth, and never across a committed unit of a build): its rowid is the
// ID of the group's first solution, its entries one per block, and its
// checksum covers the rowid and the entries, so a changed, moved or lost
// row is found. Each entry is
//
//	solutions (2 bytes, little-endian) | synopsis | checksum of each cell's run | checksum of the class entries
//
// every checksum 4 bytes, little-endian: the low 32 bits of the XXH3
// (64-bit) hash of the column's bytes, XORed with a mix of the block's
// first solution ID and the column's number (checkSeed), so that a run
// moved to another block or column does not match. XXH3 is chosen over
// CRC-32C for speed: a scan checks every byte it reads, and on the 2-core
// AMD EPYC machine XXH3 hashed a 2 KB block at 45 GB/s where the CPU's
// CRC-32C instruction (hash/crc32) did 24 GB/s (docs/algorithms.md).

// indexRowBytes is the most bytes of entries in one index row: with the
// row's own few bytes, it stays on one 4 KiB page.
const indexRowBytes = 4000

// blockIndexTable names a puzzle's block index: "queens:8" has
// block_index_queens_8.
func blockIndexTable(puzzle string) string { return "block_index_" + tableSuffix(puzzle) }

// indexEntryBytes is the length of one block's index entry.
func (b blockTable) indexEntryBytes() int { return 2 + b.synopsisBytes() + 4*(b.CellBytes+1) }

// indexPerRow is how many blocks one index row holds at most.
func (b blockTable) indexPerRow() int { return max(indexRowBytes/b.indexEntryBytes(), 1) }

// checkSeed mixes where a run lies, a block's (or row's) number and a
// column's, into 64 bits (SplitMix64's finalizer): every bit of both moves
// about half the bits of the result.
func checkSeed(at int64, col int) uint64 {
	z := uint64(at)<<6 ^ uint64(col) + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// columnCheck is the checksum of column col (a cell, or CellBytes for the
// class entries) of the block whose first solution is first.
func columnCheck(first int64, col int, data []byte) uint32 {
	return uint32(checksum.Sum64(data) ^ checkSeed(first, col))
}

// rowCheck is the checksum of an index row: its rowid and its bytes (a
// row's parts are hashed one after the other, as one run).
func rowCheck(rowid int64, data ...[]byte) uint32 {
	var sum uint64
	switch len(data) {
	case 1:
		sum = checksum.Sum64(data[0])
	default:
		h := xxh3.New()
		for _, d := range data {
			h.Write(d)
		}
		sum = h.Sum64()
	}
	return uint32(sum ^ checkSeed(rowid, 63))
}

// appendIndexEntry appends the index entry of a block whose first
// solution is first, cells column by column, n solutions, with its class
// entries.
func (b blockTable) appendIndexEntry(dst []byte, first int64, cols, entries []byte, n int) []byte {
	dst = binary.LittleEndian.AppendUint16(dst, uint16(n))
	dst = b.appendSynopsis(dst, cols, n)
	for c := range b.CellBytes {
		dst = binary.LittleEndian.AppendUint32(dst, columnCheck(first, c, cols[c*n:(c+1)*n]))
	}
	return binary.LittleEndian.AppendUint32(dst, columnCheck(first, b.CellBytes, entries))
}

// indexEntry is one block's entry in the index, read in place.
type indexEntry []byte

func (e indexEntry) solutions() int { return int(binary.LittleEndian.Uint16(e)) }

// synopsis is the entry's synopsis, s bytes.
func (e indexEntry) synopsis(s int) []byte { return e[2 : 2+s] }

// check is the checksum of column col, after a synopsis of s bytes.
func (e indexEntry) check(s, col int) uint32 { return binary.LittleEndian.Uint32(e[2+s+4*col:]) }

// checkGroup checks an index row against its checksum and its entries'
// lengths, and returns the ID after its last solution.
func (b blockTable) checkGroup(first int64, entries []byte, sum int64) (end int64, err error) {
	size := b.indexEntryBytes()
	if uint32(sum) != rowCheck(first, entries) || sum < 0 || sum > 1<<32-1 {
		return 0, fmt.Errorf("the block index row of solution %d is damaged: its checksum does not match", first)
	}
	if len(entries) == 0 || len(entries)%size != 0 {
		return 0, fmt.Errorf("the block index row of solution %d is damaged: %d bytes are not whole entries of %d", first, len(entries), size)
	}
	end = first
	for at := 0; at < len(entries); at += size {
		n := indexEntry(entries[at:]).solutions()
		if n < 1 || n > maxBlockSolutions {
			return 0, fmt.Errorf("the block index row of solution %d is damaged: a block of %d solutions", first, n)
		}
		end += int64(n)
	}
	return end, nil
}

// The class entries of block layout 3 are written in base 64, most
// significant digit first, with the 64 characters '0' (48) to 'o' (111):
// text that plain SQL cuts apart and reads with unicode(), in fewer bytes
// than decimal (5 for queens:17, where decimal takes 8).
const base64Zero = '0'

// classSymDigits64 is the width of the base-64 class entries of a puzzle
// with this many classes.
func classSymDigits64(classes int64) int {
	v, w := max(classes, 1)*8+7, 1
	for v >= 64 {
		v >>= 6
		w++
	}
	return w
}

// appendDigits64 appends v (>= 0) in base 64, width digits.
func appendDigits64(dst []byte, v int64, width int) []byte {
	for k := width - 1; k >= 0; k-- {
		dst = append(dst, byte(base64Zero+(v>>(6*k))&63))
	}
	return dst
}

// parseDigits64 reads a base-64 class entry.
func parseDigits64(b []byte) (int64, bool) {
	var v int64
	for _, c := range b {
		d := c - base64Zero
		if d > 63 {
			return 0, false
		}
		v = v<<6 | int64(d)
	}
	return v, len(b) > 0
}
