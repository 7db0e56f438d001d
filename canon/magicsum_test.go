package canon

import (
	"slices"
	"testing"
)

func TestSumLines(t *testing.T) {
	for _, tc := range []struct {
		name     string
		n        int
		cells    []byte
		constant int
		want     LineSums
	}{
		{"magic:3", 3, []byte{2, 7, 6, 9, 5, 1, 4, 3, 8}, 15, LineSums{[]int{15, 15, 15}, []int{15, 15, 15}, 15, 15}},
		{"magic:4", 4, []byte{1, 2, 15, 16, 12, 14, 3, 5, 13, 7, 10, 4, 8, 11, 6, 9}, 34, LineSums{[]int{34, 34, 34, 34}, []int{34, 34, 34, 34}, 34, 34}},
		{"not magic", 3, []byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, 15, LineSums{[]int{6, 15, 24}, []int{12, 15, 18}, 15, 15}},
		{"magic:1", 1, []byte{1}, 1, LineSums{[]int{1}, []int{1}, 1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := MagicConstant(tc.n); got != tc.constant {
				t.Errorf("MagicConstant(%d) = %d, want %d", tc.n, got, tc.constant)
			}
			got := SumLines(tc.n, tc.cells)
			if !slices.Equal(got.Rows, tc.want.Rows) || !slices.Equal(got.Cols, tc.want.Cols) || got.Diagonal != tc.want.Diagonal || got.Anti != tc.want.Anti {
				t.Errorf("SumLines = %+v, want %+v", got, tc.want)
			}
		})
	}
}
