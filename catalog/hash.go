package catalog

import (
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash"
)

// ContentHash is the SHA-256 of a stored puzzle's content: the SHA-256 of
// its classes in ID order (canonical bytes, orbit) followed by the SHA-256
// of its solutions in ID order (cells, class ID as 8 bytes big-endian,
// symmetry). It does not depend on how or where the puzzle was built, and
// classes and solutions may be added in any interleaving.
type ContentHash struct {
	classes, solutions hash.Hash
	pending            []byte // solution bytes not yet hashed: one Write per 64 KiB, not three per row
	pendingClasses     []byte // the same for classes
}

// NewContentHash starts a hash.
func NewContentHash() *ContentHash {
	return &ContentHash{classes: sha256.New(), solutions: sha256.New()}
}

// AddClass adds the next class.
func (c *ContentHash) AddClass(canonical []byte, orbit int) {
	c.pendingClasses = append(append(c.pendingClasses, canonical...), byte(orbit))
	if len(c.pendingClasses) >= 1<<16 {
		c.classes.Write(c.pendingClasses)
		c.pendingClasses = c.pendingClasses[:0]
	}
}

// flush hashes what is pending.
func (c *ContentHash) flush() {
	c.classes.Write(c.pendingClasses)
	c.pendingClasses = c.pendingClasses[:0]
	c.solutions.Write(c.pending)
	c.pending = c.pending[:0]
}

// AddSolution adds the next solution.
func (c *ContentHash) AddSolution(cells []byte, classID int64, symmetry int) {
	c.pending = append(c.pending, cells...)
	c.pending = binary.BigEndian.AppendUint64(c.pending, uint64(classID))
	c.pending = append(c.pending, byte(symmetry))
	if len(c.pending) >= 1<<16 {
		c.solutions.Write(c.pending)
		c.pending = c.pending[:0]
	}
}

// Sum returns the hash in hex.
func (c *ContentHash) Sum() string {
	c.flush()
	both := sha256.New()
	both.Write(c.classes.Sum(nil))
	both.Write(c.solutions.Sum(nil))
	return hex.EncodeToString(both.Sum(nil))
}

// state returns the hash's state after everything added so far, so that a
// resumed build can carry on from it.
func (c *ContentHash) state() ([]byte, error) {
	c.flush()
	a, err := c.classes.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		return nil, err
	}
	b, err := c.solutions.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		return nil, err
	}
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(a))), append(a, b...)...), nil
}

// resumeContentHash restores a hash from its state.
func resumeContentHash(state []byte) (*ContentHash, error) {
	c := NewContentHash()
	if len(state) < 4 || int(binary.BigEndian.Uint32(state)) > len(state)-4 {
		return nil, errors.New("damaged content hash state")
	}
	split := 4 + int(binary.BigEndian.Uint32(state))
	if err := c.classes.(encoding.BinaryUnmarshaler).UnmarshalBinary(state[4:split]); err != nil {
		return nil, err
	}
	if err := c.solutions.(encoding.BinaryUnmarshaler).UnmarshalBinary(state[split:]); err != nil {
		return nil, err
	}
	return c, nil
}
