package canon

import "testing"

func TestThousands(t *testing.T) {
	for _, tc := range []struct {
		v    int64
		want string
	}{{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {45647, "45,647"}, {100000, "100,000"}, {14772512, "14,772,512"},
		{-1234, "-1,234"}, {-999, "-999"}, {-9223372036854775808, "-9,223,372,036,854,775,808"}} {
		t.Run(tc.want, func(t *testing.T) {
			if got := Thousands(tc.v); got != tc.want {
				t.Errorf("Thousands(%d) = %q, want %q", tc.v, got, tc.want)
			}
		})
	}
}

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
