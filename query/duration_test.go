package query

import (
	"testing"
	"time"

	"solcat/query/solve"
)

// TestRoughDuration: the times --explain and the refusals give, from
// under a second to past the longest search judged.
func TestRoughDuration(t *testing.T) {
	const year = 365 * 24 * time.Hour
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{300 * time.Millisecond, "under a second"},
		{1200 * time.Millisecond, "about a second"},
		{40 * time.Second, "about 40 seconds"},
		{70 * time.Second, "about a minute"},
		{25 * time.Minute, "about 25 minutes"},
		{150 * time.Minute, "about 2.5 hours"},
		{1195 * time.Hour, "about 1,195 hours"},
		{7 * year, "about 7 years"},
		{solve.LongestSearch, "over 250 years"},
	} {
		if got := roughDuration(tc.d); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.d, got, tc.want)
		}
	}
}
