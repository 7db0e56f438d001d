package query

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sort"
	"sync"

	"solcat/canon"
	"solcat/catalog"
)

// A puzzle stored as its classes only (magic:5) has no solution rows: its
// classes table holds packed canonical forms, its props table the classes
// that have properties, and every class has 8 members. Queries read the
// classes and expand each into its members on the fly.
//
// Members have IDs too, so that list, show and export can name them: the
// members of class k are numbered 8(k-1)+1 to 8k in lexicographic order.
// list therefore returns members class by class, in class ID order, and
// within a class in lexicographic order; it is not one lexicographic order
// over all squares (that would need every square sorted, which is what
// storing them would cost).

// (The classes table holds blocks of catalog.ClassesPerBlock packed forms.)

// classesOnly reports whether the puzzle is stored as its classes only.
func (t *Target) classesOnly() bool { return t.Record.Storage == catalog.StorageClasses }

// classRow is one class as the scans see it; Form is valid until the next row.
type classRow struct {
	ID    int64
	Form  []byte
	Orbit int64
	Props canon.Property
}

// classRows streams, in ID order, the classes with IDs lo to hi that meet
// the filter's class conditions (orbit, properties), whatever their storage.
func (t *Target) classRows(ctx context.Context, lo, hi int64, f Filter, fn func(classRow) error) error {
	if !t.classesOnly() {
		cw, args := classConditions(f)
		rows, err := t.db.QueryContext(ctx, "SELECT id, canonical, orbit, props FROM "+t.classes+" WHERE id BETWEEN ? AND ? AND "+cw+" ORDER BY id",
			append([]any{lo, hi}, args...)...)
		if err != nil {
			return err
		}
		defer rows.Close()
		var c classRow
		var form sql.RawBytes // no copy: valid until the next row, as Form promises
		for rows.Next() {
			if err := rows.Scan(&c.ID, &form, &c.Orbit, &c.Props); err != nil {
				return err
			}
			c.Form = form
			if err := fn(c); err != nil {
				return err
			}
		}
		return rows.Err()
	}
	if (f.Orbit != 0 && f.Orbit != 8) || (f.Props.OrbitOf() != 0 && f.Props.OrbitOf() != 8) {
		return nil // every class has 8 members
	}
	hi = min(hi, t.Record.Classes)
	props, err := t.classProps(ctx)
	if err != nil {
		return err
	}
	// props is in ID order, and so are the classes: walk both together.
	next := sort.Search(len(props), func(i int) bool { return props[i].id >= lo })
	var cells [25]byte
	c := classRow{Form: cells[:], Orbit: 8}
	emit := func(block int64, forms []byte, want canon.Property) error {
		if len(forms)%16 != 0 || len(forms) > 16*catalog.ClassesPerBlock {
			return fmt.Errorf("block %d of %s holds %d bytes, not whole 16-byte forms; the catalog is damaged: rebuild %s with --force", block, t.Puzzle, len(forms), t.Puzzle)
		}
		for i := 0; i < len(forms); i += 16 {
			c.ID = (block-1)*catalog.ClassesPerBlock + int64(i/16) + 1
			if c.ID < lo || c.ID > hi {
				continue
			}
			for next < len(props) && props[next].id < c.ID {
				next++
			}
			c.Props = 0
			if next < len(props) && props[next].id == c.ID {
				c.Props = props[next].props
			}
			if c.Props&want != want {
				continue
			}
			key, _ := canon.Packed25From(forms[i : i+16])
			canon.Unpack25(key, &cells)
			if err := fn(c); err != nil {
				return err
			}
		}
		return nil
	}
	blockOf := func(id int64) int64 { return (id-1)/catalog.ClassesPerBlock + 1 }
	if want := f.Props.Stored(); want != 0 {
		// Few classes have properties: read only their blocks.
		var last int64 // the block read last
		for i := next; i < len(props) && props[i].id <= hi; i++ {
			block := blockOf(props[i].id)
			if props[i].props&want != want || block == last {
				continue
			}
			last = block
			var forms []byte
			if err := t.db.QueryRowContext(ctx, "SELECT forms FROM "+t.classes+" WHERE block = ?", block).Scan(&forms); err != nil {
				return fmt.Errorf("reading block %d of %s: %w", block, t.Puzzle, err)
			}
			next = sort.Search(len(props), func(k int) bool { return props[k].id >= (block-1)*catalog.ClassesPerBlock+1 })
			if err := emit(block, forms, want); err != nil {
				return err
			}
		}
		return nil
	}
	rows, err := t.db.QueryContext(ctx, "SELECT block, forms FROM "+t.classes+" WHERE block BETWEEN ? AND ? ORDER BY block", blockOf(lo), blockOf(hi))
	if err != nil {
		return err
	}
	defer rows.Close()
	var block int64
	var forms sql.RawBytes
	for rows.Next() {
		if err := rows.Scan(&block, &forms); err != nil {
			return err
		}
		if err := emit(block, forms, 0); err != nil {
			return err
		}
	}
	return rows.Err()
}

// classProp is one row of a classes-only puzzle's props table.
type classProp struct {
	id    int64
	props canon.Property
}

// classProps reads the properties of a classes-only puzzle in ID order: a
// few tens of thousands of rows, read once per target.
func (t *Target) classProps(ctx context.Context) ([]classProp, error) {
	t.propsOnce.Do(func() {
		rows, err := t.db.QueryContext(ctx, "SELECT id, props FROM "+t.propsTable+" ORDER BY id")
		if err != nil {
			t.propsErr = err
			return
		}
		defer rows.Close()
		for rows.Next() {
			var p classProp
			if err := rows.Scan(&p.id, &p.props); err != nil {
				t.propsErr = err
				return
			}
			t.props = append(t.props, p)
		}
		t.propsErr = rows.Err()
	})
	return t.props, t.propsErr
}

// propsCache is a classes-only target's property table, read once.
type propsCache struct {
	propsOnce sync.Once
	props     []classProp
	propsErr  error
}

// member is one member of a class: its image under a symmetry.
type member struct {
	cells []byte
	from  canon.Symmetry
}

// membersInOrder returns the distinct members of a class in lexicographic
// order, each with the first symmetry (in canon.All order) that gives it.
func membersInOrder(p canon.Puzzle, form []byte) []member {
	var out []member
	canon.NewImages(p).Distinct(form, func(s canon.Symmetry, img []byte) error {
		out = append(out, member{cells: slices.Clone(img), from: s})
		return nil
	})
	slices.SortFunc(out, func(a, b member) int { return slices.Compare(a.cells, b.cells) })
	return out
}

// listExpanded streams the members of a classes-only puzzle that match f,
// class by class (see the top of this file for the order and the IDs).
func (t *Target) listExpanded(ctx context.Context, f Filter, page Page, fn func(Solution) error) error {
	conds := f.byteConditions(t.Puzzle)
	pulled := pullBack(t.Puzzle, conds)
	lo, hi := t.classRange(f)
	pg := pager{skip: page.Offset, left: page.Limit}
	if pg.left == 0 {
		return nil
	}
	err := t.classRows(ctx, lo, hi, f, func(c classRow) error {
		if matchingMembers(&pulled, c.Form, c.Orbit, f.UpToSymmetry) == 0 {
			return nil
		}
		anyImage := f.UpToSymmetry
		for k, m := range membersInOrder(t.Puzzle, c.Form) {
			if !anyImage && !meets(m.cells, conds) {
				continue
			}
			if pg.skipped() {
				continue
			}
			s := Solution{ID: (c.ID-1)*8 + int64(k) + 1, Cells: m.cells, ClassID: c.ID, Symmetry: m.from, Orbit: int(c.Orbit), Props: c.Props}
			if err := fn(s); err != nil {
				return err
			}
			if err := pg.gave(); err != nil {
				return err
			}
		}
		return nil
	})
	if err == errEnough {
		return nil
	}
	return err
}
