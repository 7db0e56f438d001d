package catalog

import (
	"encoding/binary"
	"fmt"

	"solcat/canon"
)

// The class index of a puzzle stored as its classes only (magic:5,
// queens:18 and 19) describes its class blocks in groups of
// classGroupBlocks: for each group a synopsis of its canonical forms (bit
// i·V + v set when some class of the group holds value v at cell i, as in
// a solution block's synopsis), so that a scan whose filter no symmetry
// of a form can meet in the group skips its blocks unread, and the
// checksum of each block, so that every block read is checked. Canonical
// forms are in lexicographic order, so a group's forms share their first
// cells: a filter that pins those cells, under some symmetry, skips most
// groups. A row's checksum covers its group number and bytes.

// classGroupBlocks is how many class blocks one synopsis describes: about
// a thousand classes, for about 100 bytes of index.
const classGroupBlocks = 8

// classIndexTable names a classes-only puzzle's class index:
// "magic:5" has class_index_magic_5.
func classIndexTable(puzzle string) string { return "class_index_" + tableSuffix(puzzle) }

// classSynopsisBits is how many values a cell of a canonical form of p
// can hold, as synopsis bits: as synopsisBits.
func classSynopsisBits(p canon.Puzzle) int { return synopsisBits(p) }

// classGroup is the class index row being filled by a writer, or read.
type classGroup struct {
	group  int64
	syn    []byte
	checks []byte // 4 bytes a block
}

// addForms adds to the synopsis the forms of one block, unpacked into
// cells (the form's length).
func (g *classGroup) addForms(f packedForm, bits int, forms []byte, cells []byte) {
	for at := 0; at+f.size <= len(forms); at += f.size {
		f.unpack(forms[at:at+f.size], cells)
		for c, v := range cells {
			if int(v) < bits {
				bit := c*bits + int(v)
				g.syn[bit>>3] |= 1 << (bit & 7)
			}
		}
	}
}

// blockCheck is the checksum of class block k's forms.
func blockCheck(k int64, forms []byte) uint32 { return columnCheck(k, 0, forms) }

// checkClassGroup checks a class index row read: its checksum, the
// synopsis's length, and that it holds the checksums of the group's
// blocks (blocks in all).
func checkClassGroup(group int64, syn, checks []byte, sum int64, synBytes int, blocks int64) error {
	want := min(blocks-(group-1)*classGroupBlocks, classGroupBlocks)
	switch {
	case uint32(sum) != rowCheck(group, syn, checks) || sum < 0 || sum > 1<<32-1:
		return fmt.Errorf("the class index row of group %d is damaged: its checksum does not match", group)
	case len(syn) != synBytes || int64(len(checks)) != 4*want || want < 1:
		return fmt.Errorf("the class index row of group %d is damaged: %d synopsis bytes and %d checksum bytes, %d and %d expected", group, len(syn), len(checks), synBytes, 4*want)
	}
	return nil
}

// ClassGroup is a group of class blocks as the class index describes it,
// handed to a scan's Select before its blocks are read.
type ClassGroup struct {
	First, Last int64 // its class IDs
	syn         []byte
	bits        int
}

// MayHold reports whether some class of the group may hold value v at
// cell i of its canonical form: false only when the synopsis says none
// does.
func (g *ClassGroup) MayHold(i int, v byte) bool {
	if g.syn == nil || int(v) >= g.bits {
		return true
	}
	bit := i*g.bits + int(v)
	return g.syn[bit>>3]&(1<<(bit&7)) != 0
}

func groupCheckAt(checks []byte, k int) uint32 { return binary.LittleEndian.Uint32(checks[4*k:]) }
