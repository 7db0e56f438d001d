package catalog

import (
	"context"
	"fmt"
	"sort"

	"solcat/canon"
)

// A puzzle stored as its classes only (magic:5, queens:18 and queens:19)
// keeps each class's canonical form packed, a block of consecutive classes
// to a row: magic squares 5 bits a cell in 16 bytes (canon.Pack25), queens
// 5 bits a row (canon.PackQueens, 12 bytes for queens:18 and 19). Every
// order-5 square has 8 members; a queens class may have 1, 2 or 4, and
// those classes (a few thousand) sit in a table of their own with the ID
// of their first member, so that member IDs, numbered class by class, map
// to classes by a binary search over that table.

// packedForm says how a classes-only puzzle's forms are packed.
type packedForm struct {
	size     int  // bytes per packed form
	cells    int  // bytes of an unpacked form
	perBlock int  // forms per block row
	queens   bool // packed by canon.PackQueens, orbits may be below 8
}

// blockPayload is the most bytes of forms a block row holds: with the
// row's own few bytes, two rows share a 4 KiB page whole (127 forms of 16
// bytes for magic:5, 169 of 12 for queens).
const blockPayload = 2032

// packedFormOf returns how p's forms are packed.
func packedFormOf(p canon.Puzzle) (packedForm, error) {
	switch {
	case p.Kind == canon.Magic && p.N == 5:
		return packedForm{size: 16, cells: 25, perBlock: blockPayload / 16}, nil
	case p.Kind == canon.Queens && p.N <= canon.MaxPackedQueens:
		size := canon.QueensPackedLen(p.N)
		return packedForm{size: size, cells: p.N, perBlock: blockPayload / size, queens: true}, nil
	}
	return packedForm{}, fmt.Errorf("%s cannot be stored as its classes only (this is a bug, please report it)", p)
}

// unpack fills cells from one packed form.
func (f packedForm) unpack(packed, cells []byte) {
	if f.queens {
		canon.UnpackQueens(packed, cells)
		return
	}
	key, _ := canon.Packed25From(packed)
	canon.Unpack25(key, (*[25]byte)(cells))
}

// blockOf is the block row that holds class id.
func (f packedForm) blockOf(id int64) int64 { return (id-1)/int64(f.perBlock) + 1 }

// orbitsTable names the table of a classes-only queens puzzle's classes
// with fewer than 8 members: "queens:18" has orbits_queens_18.
func orbitsTable(puzzle string) string { return "orbits_" + tableSuffix(puzzle) }

// classOrbit is one row of the orbits table: a class with fewer than 8
// members, and the ID of its first member.
type classOrbit struct {
	ID    int64 `db:"id"`
	Orbit int   `db:"orbit"`
	First int64 `db:"first_member"`
}

// memberNumbering maps classes to the IDs of their members and back. A
// class's members are numbered on from the last member of the class
// before it, 8 for every class not in rows, so class k's first member is
// 8(k-1)+1 less what the classes of rows before k lack.
type memberNumbering struct {
	rows []classOrbit // the classes with fewer than 8 members, in ID order
}

// firstMember is the ID of class k's first member.
func (m memberNumbering) firstMember(k int64) int64 {
	j := sort.Search(len(m.rows), func(i int) bool { return m.rows[i].ID >= k })
	if j == 0 {
		return 8*(k-1) + 1
	}
	r := m.rows[j-1]
	return r.First + int64(r.Orbit) + 8*(k-r.ID-1)
}

// classOf returns the class of member id and its 0-based place among the
// class's members.
func (m memberNumbering) classOf(id int64) (class, index int64) {
	j := sort.Search(len(m.rows), func(i int) bool { return m.rows[i].First > id })
	if j == 0 {
		return (id-1)/8 + 1, (id - 1) % 8
	}
	r := m.rows[j-1]
	if id < r.First+int64(r.Orbit) {
		return r.ID, id - r.First
	}
	off := id - r.First - int64(r.Orbit)
	return r.ID + 1 + off/8, off % 8
}

// numbering reads the orbits table once (none for magic:5: every class
// has 8 members).
func (s *Content) numbering(ctx context.Context) (memberNumbering, error) {
	s.orbitsOnce.Do(func() {
		has, err := hasTable(ctx, s.c.db, s.orbits)
		if err != nil || !has {
			s.orbitsErr = err
			return
		}
		s.orbitsErr = s.c.db.SelectContext(ctx, &s.orbitsList.rows, "SELECT id, orbit, first_member FROM "+s.orbits+" ORDER BY id")
	})
	return s.orbitsList, s.orbitsErr
}

// FirstMember returns the solution ID of the first member of class id of a
// puzzle stored as its classes: its members are numbered class by class.
func (s *Content) FirstMember(ctx context.Context, id int64) (int64, error) {
	m, err := s.numbering(ctx)
	return m.firstMember(id), err
}

// MemberClass returns the class of solution id of a puzzle stored as its
// classes, and the solution's 0-based place among the class's members.
func (s *Content) MemberClass(ctx context.Context, id int64) (class, index int64, err error) {
	m, err := s.numbering(ctx)
	class, index = m.classOf(id)
	return class, index, err
}

// PackedForms calls fn, in class ID order, for each block of packed
// canonical forms of a classes-only puzzle that holds a class lo to hi:
// first is the ID of the block's first class, forms its forms
// (PackedFormSize bytes each, 5 bits a cell or row, most significant
// first: a magic square's value less 1, a queen's 0-based column), valid
// during the call. The caller picks the classes in range.
func (s *Content) PackedForms(ctx context.Context, lo, hi int64, fn func(first int64, forms []byte) error) error {
	_, err := s.ScanClassBlocks(ctx, ClassBlockScan{Lo: lo, Hi: hi}, func(_ int, first int64, forms []byte, _ uint32) error { return fn(first, forms) })
	return err
}

// checkFormBlock refuses a class block whose bytes are not whole forms, or
// more than a block holds.
func (s *Content) checkFormBlock(block int64, forms []byte) error {
	if len(forms)%s.form.size != 0 || len(forms) > s.form.size*s.form.perBlock {
		return fmt.Errorf("%s: class block %d is damaged: %d bytes are not whole %d-byte forms", s.Record.Name, block, len(forms), s.form.size)
	}
	return nil
}

// PackedFormSize is the length of one packed form of a classes-only
// puzzle.
func (s *Content) PackedFormSize() int { return s.form.size }

// SmallOrbits returns, in ID order, the classes of a classes-only queens
// puzzle with fewer than 8 members, as IDs and orbit sizes; every other
// class has 8.
func (s *Content) SmallOrbits(ctx context.Context) (ids []int64, orbits []int, err error) {
	m, err := s.numbering(ctx)
	for _, r := range m.rows {
		ids, orbits = append(ids, r.ID), append(orbits, r.Orbit)
	}
	return ids, orbits, err
}
