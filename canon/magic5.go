package canon

// Order 5 has loops over hundreds of millions of classes (a magic:5 build,
// its verification): its properties are computed here without allocating.

// magic5Maps are, for each of the 8 symmetries, the cell each cell of the
// image comes from: image[i] = sq[magic5Maps[s][i]].
var magic5Maps = func() (maps [8][25]byte) {
	p := Puzzle{Kind: Magic, N: 5}
	var index, image [25]byte
	for i := range index {
		index[i] = byte(i)
	}
	for s := range maps {
		p.Apply(Symmetry(s), image[:], index[:])
		maps[s] = image
	}
	return maps
}()

// Magic5Properties is Properties of an order-5 square, its canonical form
// most often: pandiagonal, associative, self-complementary. Only a square
// with centre 13 can be associative or self-complementary (the complement's
// centre is 26-c, and every member of a class has the same centre).
func Magic5Properties(sq *[25]byte) Property {
	var props Property
	if pandiagonal5(sq) {
		props |= Pandiagonal
	}
	if sq[12] != 13 {
		return props
	}
	associative := true
	for i := 0; i < 12 && associative; i++ {
		associative = sq[i]+sq[24-i] == 26
	}
	if associative {
		props |= Associative
	}
	var complement [25]byte
	for i, v := range sq {
		complement[i] = 26 - v
	}
	if frenicle5(&complement) == frenicle5(sq) {
		props |= SelfComplementary
	}
	return props
}

// pandiagonal5 reports whether every broken diagonal, in both directions,
// sums to 65.
func pandiagonal5(sq *[25]byte) bool {
	for k := range 5 {
		down, up := 0, 0
		for r := range 5 {
			down += int(sq[5*r+(r+k)%5])
			up += int(sq[5*r+(k-r+5)%5])
		}
		if down != 65 || up != 65 {
			return false
		}
	}
	return true
}

// frenicle5 is the least of the 8 images of sq, read row by row.
func frenicle5(sq *[25]byte) [25]byte {
	var best, image [25]byte
	for s := range magic5Maps {
		for i, from := range magic5Maps[s] {
			image[i] = sq[from]
		}
		if s == 0 || less25(&image, &best) {
			best = image
		}
	}
	return best
}

func less25(a, b *[25]byte) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}
