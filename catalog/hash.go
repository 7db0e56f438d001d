package catalog

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
)

// ContentHash is the SHA-256 of a stored puzzle's content: the SHA-256 of
// its classes in ID order (canonical bytes, orbit) followed by the SHA-256
// of its solutions in ID order (cells, class ID as 8 bytes big-endian,
// symmetry). It does not depend on how or where the puzzle was built, and
// classes and solutions may be added in any interleaving.
type ContentHash struct {
	classes, solutions hash.Hash
	buf                [8]byte
}

// NewContentHash starts a hash.
func NewContentHash() *ContentHash {
	return &ContentHash{classes: sha256.New(), solutions: sha256.New()}
}

// AddClass adds the next class.
func (c *ContentHash) AddClass(canonical []byte, orbit int) {
	c.classes.Write(canonical)
	c.classes.Write([]byte{byte(orbit)})
}

// AddSolution adds the next solution.
func (c *ContentHash) AddSolution(cells []byte, classID int64, symmetry int) {
	c.solutions.Write(cells)
	binary.BigEndian.PutUint64(c.buf[:], uint64(classID))
	c.solutions.Write(c.buf[:])
	c.solutions.Write([]byte{byte(symmetry)})
}

// Sum returns the hash in hex.
func (c *ContentHash) Sum() string {
	both := sha256.New()
	both.Write(c.classes.Sum(nil))
	both.Write(c.solutions.Sum(nil))
	return hex.EncodeToString(both.Sum(nil))
}
