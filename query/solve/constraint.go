package solve

import (
	"solcat/canon"
	"solcat/enumerate"
)

// A Cell is a fixed cell of a filter as typed: row and column 1-based, and
// its value (queens: 1 a queen, 0 an empty square).
type Cell struct{ Row, Col, Value int }

// A Constraint is the columns each row's queen may use on a queens board:
// what a filter's fixed cells leave.
type Constraint struct{ c enumerate.QueensConstraint }

// Queens is the constraint of cells on queens:n: a queen leaves its row
// one column, an empty square takes its column from its row.
func Queens(n int, cells []Cell) Constraint {
	c := enumerate.NewQueensConstraint(n)
	for _, cell := range cells {
		if cell.Value == 1 {
			c.Queen(cell.Row-1, cell.Col-1)
		} else {
			c.Empty(cell.Row-1, cell.Col-1)
		}
	}
	return Constraint{c}
}

// N is the size of the board.
func (c Constraint) N() int { return c.c.N }

// With is c with one more queen, in the cell given.
func (c Constraint) With(queen Cell) Constraint {
	out := c.c.Clone()
	out.Queen(queen.Row-1, queen.Col-1)
	return Constraint{out}
}

// Canonical is the image of c, with what its queens imply, that every
// spelling and image of c turns into: one count for all of them.
func (c Constraint) Canonical() Constraint { return Constraint{c.c.Canonical()} }

// Mirrored reports whether c is its own mirror image (left to right): the
// columns right of the centre count as their mirror images.
func (c Constraint) Mirrored() bool { return c.c.Mirrored() }

// Free reports whether c fixes no cell: the question whose counts are
// published.
func (c Constraint) Free() bool {
	return string(c.c.Key()) == string(enumerate.NewQueensConstraint(c.c.N).Key())
}

// Images is how many distinct images c has under the 8 symmetries: the
// counts a question up to symmetry joins.
func (c Constraint) Images() int { return len(c.images()) }

func (c Constraint) images() []enumerate.QueensConstraint {
	var imgs []enumerate.QueensConstraint
	seen := map[string]bool{}
	for _, s := range canon.All {
		img := c.c.Image(s)
		if k := string(img.Key()); !seen[k] {
			seen[k] = true
			imgs = append(imgs, img)
		}
	}
	return imgs
}

// unionOfImages counts, by count, the solutions with an image under the 8
// symmetries that meets c: the union of the solutions of c's distinct
// images, by inclusion and exclusion (the solutions of several images at
// once are those of the squares the images allow in common, a constraint
// too). Counts of equal questions are made once.
func (c Constraint) unionOfImages(count func(Constraint) (int64, error)) (total int64, err error) {
	imgs := c.images()
	counted := map[string]int64{}
	for set := 1; set < 1<<len(imgs); set++ {
		var both enumerate.QueensConstraint
		sign := int64(-1)
		for i, img := range imgs {
			if set&(1<<i) == 0 {
				continue
			}
			if sign = -sign; both.Allowed == nil {
				both = img.Clone()
			} else {
				both = both.And(img)
			}
		}
		if both.Impossible() {
			continue
		}
		key := string(both.Question())
		n, ok := counted[key]
		if !ok {
			if n, err = count(Constraint{both}); err != nil {
				return 0, err
			}
			counted[key] = n
		}
		total += sign * n
	}
	return total, nil
}
