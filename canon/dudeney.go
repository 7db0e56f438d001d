package canon

import (
	"fmt"
	"strings"
)

// Dudeney sorted the 880 order-4 squares into twelve types by where the
// complementary pairs x and 17-x sit (The Queen, 1910; Amusements in
// Mathematics, 1917). In each diagram below, the two cells that share a
// letter hold a pair; a square is of the type one of whose 8 images pairs
// its cells the same way. The numbering is Dudeney's: type I holds the
// pandiagonal squares, II their transpositions, III the associative ones,
// VI the most common pattern, mirrored pairs in every row.
var dudeneyDiagrams = [12]string{
	"abcd efgh cdab ghef", // I: x and 17-x two rows and two columns apart
	"abcd badc efgh fehg", // II
	"abcd efgh hgfe dcba", // III: symmetric about the centre
	"abcd abcd efgh efgh", // IV
	"abab cdcd efef ghgh", // V
	"abba cddc effe ghhg", // VI
	"abcd ebcf eghf aghd", // VII
	"abab cddc effe ghgh", // VIII
	"abcd aefd gefh gbch", // IX
	"abba cdcd efef ghhg", // X
	"abcd adcb efgh ehgf", // XI
	"abab cdcd efgh ghef", // XII
}

var dudeneyNumerals = [13]string{"", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"}

// DudeneyNumeral writes group g (1-12) as Dudeney did, in Roman numerals.
func DudeneyNumeral(g int) string {
	if g < 1 || g > 12 {
		return fmt.Sprint(g)
	}
	return dudeneyNumerals[g]
}

// dudeneyKeys maps the pairing of each diagram, in its least image, to the
// group number.
var dudeneyKeys = func() map[[16]byte]int {
	keys := map[[16]byte]int{}
	for g, d := range dudeneyDiagrams {
		cells := strings.ReplaceAll(d, " ", "")
		var partner [16]byte
		for i := range cells {
			j := strings.IndexByte(cells, cells[i])
			if j == i {
				j = strings.LastIndexByte(cells, cells[i])
			}
			partner[i] = byte(j)
		}
		keys[leastPairing(partner)] = g + 1
	}
	return keys
}()

// leastPairing is the smallest of the 8 images of a pairing of the cells of
// a 4×4 grid (partner[i] is the cell paired with cell i).
func leastPairing(partner [16]byte) [16]byte {
	var best [16]byte
	for k, s := range All {
		var img [16]byte
		for i, j := range partner {
			r, c := s.Map(4, i/4, i%4)
			r2, c2 := s.Map(4, int(j)/4, int(j)%4)
			img[r*4+c] = byte(r2*4 + c2)
		}
		if k == 0 || string(img[:]) < string(best[:]) {
			best = img
		}
	}
	return best
}

// DudeneyGroup returns the Dudeney type (1-12) of an order-4 magic square,
// or 0 for anything else.
func DudeneyGroup(sol []byte) int {
	if len(sol) != 16 {
		return 0
	}
	var at [17]byte
	for i, v := range sol {
		if v < 1 || v > 16 {
			return 0
		}
		at[v] = byte(i)
	}
	var partner [16]byte
	for i, v := range sol {
		partner[i] = at[17-v]
	}
	return dudeneyKeys[leastPairing(partner)]
}
