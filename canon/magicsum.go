package canon

// MagicConstant is what every row, column and main diagonal of a magic
// square of order n sums to: the numbers 1 to n² add up to n²(n²+1)/2,
// shared equally by the n rows.
func MagicConstant(n int) int { return n * (n*n + 1) / 2 }

// LineSums are the sums of a square's lines, as they are (a magic square's
// all equal its magic constant).
type LineSums struct {
	Rows, Cols     []int
	Diagonal, Anti int // from the top left, from the top right
}

// SumLines adds up the rows, columns and main diagonals of an order-n
// square given row by row.
func SumLines(n int, cells []byte) LineSums {
	s := LineSums{Rows: make([]int, n), Cols: make([]int, n)}
	for i := range n {
		for j := range n {
			v := int(cells[i*n+j])
			s.Rows[i] += v
			s.Cols[j] += v
		}
		s.Diagonal += int(cells[i*n+i])
		s.Anti += int(cells[i*n+n-1-i])
	}
	return s
}
