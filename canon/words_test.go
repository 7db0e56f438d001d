package canon

import "testing"

func TestPlural(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		noun string
		want string
	}{
		{1, "solution", "1 solution"},
		{1, "class", "1 class"},
		{0, "class", "0 classes"},
		{4, "solution", "4 solutions"},
		{12, "class", "12 classes"},
		{2, "goroutine", "2 goroutines"},
		{1, "goroutine", "1 goroutine"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			if got := Plural(tc.n, tc.noun); got != tc.want {
				t.Errorf("Plural(%d, %q) = %q, want %q", tc.n, tc.noun, got, tc.want)
			}
		})
	}
}
