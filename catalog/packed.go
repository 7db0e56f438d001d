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

// packedFormOf returns how the named puzzle's forms are packed.
func packedFormOf(puzzle string) (packedForm, error) {
	p, err := canon.ParsePuzzle(puzzle)
	switch {
	case err != nil:
		return packedForm{}, err
	case p.Kind == canon.Magic && p.N == 5:
		return packedForm{size: 16, cells: 25, perBlock: blockPayload / 16}, nil
	case p.Kind == canon.Queens && p.N <= canon.MaxPackedQueens:
		size := canon.QueensPackedLen(p.N)
		return packedForm{size: size, cells: p.N, perBlock: blockPayload / size, queens: true}, nil
	}
	return packedForm{}, fmt.Errorf("%s cannot be stored as its classes only (this is a bug, please report it)", puzzle)
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
	id    int64
	orbit int
	first int64
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
	j := sort.Search(len(m.rows), func(i int) bool { return m.rows[i].id >= k })
	if j == 0 {
		return 8*(k-1) + 1
	}
	r := m.rows[j-1]
	return r.first + int64(r.orbit) + 8*(k-r.id-1)
}

// classOf returns the class of member id and its 0-based place among the
// class's members.
func (m memberNumbering) classOf(id int64) (class, index int64) {
	j := sort.Search(len(m.rows), func(i int) bool { return m.rows[i].first > id })
	if j == 0 {
		return (id-1)/8 + 1, (id - 1) % 8
	}
	r := m.rows[j-1]
	if id < r.first+int64(r.orbit) {
		return r.id, id - r.first
	}
	off := id - r.first - int64(r.orbit)
	return r.id + 1 + off/8, off % 8
}

// orbitOf is class k's orbit size.
func (m memberNumbering) orbitOf(k int64) int {
	j := sort.Search(len(m.rows), func(i int) bool { return m.rows[i].id >= k })
	if j < len(m.rows) && m.rows[j].id == k {
		return m.rows[j].orbit
	}
	return 8
}

// numbering reads the orbits table once (none for magic:5: every class
// has 8 members).
func (s *Stored) numbering(ctx context.Context) (memberNumbering, error) {
	s.orbitsOnce.Do(func() {
		has, err := hasTable(ctx, s.c.db, s.orbits)
		if err != nil || !has {
			s.orbitsErr = err
			return
		}
		rows, err := s.c.db.QueryContext(ctx, "SELECT id, orbit, first_member FROM "+s.orbits+" ORDER BY id")
		if err != nil {
			s.orbitsErr = err
			return
		}
		defer rows.Close()
		for rows.Next() {
			var r classOrbit
			if err := rows.Scan(&r.id, &r.orbit, &r.first); err != nil {
				s.orbitsErr = err
				return
			}
			s.orbitsList.rows = append(s.orbitsList.rows, r)
		}
		s.orbitsErr = rows.Err()
	})
	return s.orbitsList, s.orbitsErr
}

// FirstMember returns the solution ID of the first member of class id of a
// puzzle stored as its classes: its members are numbered class by class.
func (s *Stored) FirstMember(ctx context.Context, id int64) (int64, error) {
	m, err := s.numbering(ctx)
	return m.firstMember(id), err
}

// MemberClass returns the class of solution id of a puzzle stored as its
// classes, and the solution's 0-based place among the class's members.
func (s *Stored) MemberClass(ctx context.Context, id int64) (class, index int64, err error) {
	m, err := s.numbering(ctx)
	class, index = m.classOf(id)
	return class, index, err
}
