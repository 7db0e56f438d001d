package enumerate

import (
	"context"

	"solcat/canon"
)

// The stored order-5 catalog needs the canonical (Frénicle) form of every
// class: 275,305,224 of them. Each basic square of the count stands for 4
// classes, one per pair of its M-images (the M-transformations meet the
// symmetries of the square in the identity and the half turn), and when its
// centre is not 13 its complement stands for 4 more with centre 26-c.

// magic5Forms maps, for one M-image of each of the 4 classes and each of the
// 8 symmetries, every cell of the resulting square to the basic square's
// cell it comes from: form[i] = sq[magic5Forms[m][s][i]].
var magic5Forms = func() [4][8][25]byte {
	p := canon.Puzzle{Kind: canon.Magic, N: 5}
	var out [4][8][25]byte
	var classes [][25]byte // the smallest image of each M-image kept, to spot pairs
	for _, perm := range magic5MImages {
		var m [25]byte
		for r := 0; r < 5; r++ {
			for c := 0; c < 5; c++ {
				m[r*5+c] = byte(perm[r]*5 + perm[c])
			}
		}
		// With the cell numbers as values, two M-images are in the same
		// class exactly when their smallest images are equal.
		var images [8][25]byte
		least := 0
		for s := range images {
			p.Apply(canon.Symmetry(s), images[s][:], m[:])
			if string(images[s][:]) < string(images[least][:]) {
				least = s
			}
		}
		seen := false
		for _, c := range classes {
			seen = seen || c == images[least]
		}
		if !seen {
			out[len(classes)] = images
			classes = append(classes, images[least])
		}
	}
	if len(classes) != 4 {
		panic("the M-images of an order-5 square do not fall into 4 classes")
	}
	return out
}()

// magic5ClassForms appends the packed canonical forms of the 4 classes a
// basic square stands for.
func magic5ClassForms(sq *[25]byte, out []canon.Packed25) []canon.Packed25 {
	for m := range magic5Forms {
		form := frenicle5(sq, &magic5Forms[m])
		out = append(out, canon.Pack25(&form))
	}
	return out
}

// frenicle5 returns the canonical (Frénicle) form among the 8 images of sq
// that maps gives: the image whose top-left cell is the smallest corner, of
// the two such the one whose (0,1) is smaller than its (1,0). Values are
// distinct, so that decides, in 16 lookups instead of 8 full comparisons.
func frenicle5(sq *[25]byte, maps *[8][25]byte) [25]byte {
	best := 0
	for s := 1; s < 8; s++ {
		a, b := sq[maps[s][0]], sq[maps[best][0]]
		if a < b || a == b && sq[maps[s][1]] < sq[maps[best][1]] {
			best = s
		}
	}
	var form [25]byte
	for i, from := range maps[best] {
		form[i] = sq[from]
	}
	return form
}

// Magic5Forms is what one unit of the stored build found: the canonical
// forms of its classes, in no particular order, and its basic squares.
type Magic5Forms struct {
	Forms []canon.Packed25
	Basic int64
}

// Magic5ClassForms finds the canonical forms of all classes of the listed
// units (indexes into Magic5Units()), those with centre c and those with
// centre 26-c, on up to workers goroutines, and hands each unit's to done in
// the order listed, from one goroutine.
func Magic5ClassForms(ctx context.Context, units []Magic5Unit, todo []int, workers int, done func(i int, f Magic5Forms) error) error {
	return runOrdered(ctx, len(todo), workers, func(k int) Magic5Forms {
		u := units[todo[k]]
		var f Magic5Forms
		var complement [25]byte
		f.Basic = magic5Emit(u, func(sq *[25]byte) {
			f.Forms = magic5ClassForms(sq, f.Forms)
			if u.Centre != 13 {
				for i, v := range sq {
					complement[i] = 26 - v
				}
				f.Forms = magic5ClassForms(&complement, f.Forms)
			}
		}).Basic
		return f
	}, func(k int, f Magic5Forms) error {
		return done(todo[k], f)
	})
}
