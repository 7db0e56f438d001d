package canon

import "testing"

func TestDudeneyGroups(t *testing.T) {
	cases := []struct {
		name   string
		square []byte
		want   int
	}{
		// Frénicle's first three squares: types VI, VI, XII in Heinz's
		// table of the 880 squares by Frénicle index.
		{"Frénicle 1", []byte{1, 2, 15, 16, 12, 14, 3, 5, 13, 7, 10, 4, 8, 11, 6, 9}, 6},
		{"Frénicle 2", []byte{1, 2, 15, 16, 13, 14, 3, 4, 12, 7, 10, 5, 8, 11, 6, 9}, 6},
		{"Frénicle 3", []byte{1, 2, 16, 15, 13, 14, 4, 3, 12, 7, 9, 6, 8, 11, 5, 10}, 12},
		// Dürer's Melencolia I square is associative: type III.
		{"Dürer", []byte{16, 3, 2, 13, 5, 10, 11, 8, 9, 6, 7, 12, 4, 15, 14, 1}, 3},
		// A pandiagonal (Nasik) square: type I.
		{"Nasik", []byte{1, 8, 13, 12, 14, 11, 2, 7, 4, 5, 16, 9, 15, 10, 3, 6}, 1},
		{"not order 4", []byte{2, 7, 6, 9, 5, 1, 4, 3, 8}, 0},
	}
	for _, tc := range cases {
		if got := DudeneyGroup(tc.square); got != tc.want {
			t.Errorf("%s: group %d, want %d", tc.name, got, tc.want)
		}
	}
	// Every image of a square is of the same type.
	p := Puzzle{Kind: Magic, N: 4}
	img := make([]byte, 16)
	for _, tc := range cases[:5] {
		for _, s := range All {
			p.Apply(s, img, tc.square)
			if got := DudeneyGroup(img); got != tc.want {
				t.Errorf("%s under %s: group %d, want %d", tc.name, s, got, tc.want)
			}
		}
	}
}
