package advice

import (
	"testing"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/catalog/catfile"
)

func TestDescribe(t *testing.T) {
	q14 := canon.Puzzle{Kind: canon.Queens, N: 14}
	q20 := canon.Puzzle{Kind: canon.Queens, N: 20}
	m5 := canon.Puzzle{Kind: canon.Magic, N: 5}
	for _, tc := range []struct {
		name string
		u    builder.Unfinished
		want string
	}{
		{"stopped", builder.Unfinished{Puzzle: q14, Percent: 40, Stored: &catalog.Building{}},
			"queens:14 is unfinished: its build stopped with 40% saved; 'solcat build queens:14' resumes it"},
		{"stopped, counted", builder.Unfinished{Puzzle: q14, Percent: 35, Done: 131072, Total: 365596, What: "solutions", Stored: &catalog.Building{}},
			"queens:14 is unfinished: its build stopped with 35% saved (131,072 of 365,596 solutions); 'solcat build queens:14' resumes it"},
		{"running, classes", builder.Unfinished{Puzzle: q14, Running: true, Writer: catfile.Holder{Command: "another solcat"}, Percent: 43, Done: 20000, Total: 45752,
			What: "classes", Stored: &catalog.Building{}},
			"queens:14 is being built: 43% saved (20,000 of 45,752 classes), by another solcat; wait for the build to finish"},
		{"stopped shard", builder.Unfinished{Puzzle: q14, Percent: 40, Shard: builder.Shard{I: 2, Of: 3}},
			"queens:14 is unfinished: its build stopped with 40% saved; 'solcat build queens:14 --shard 2/3' resumes it"},
		{"counting", builder.Unfinished{Puzzle: q20, CountOnly: true, Percent: 10, Done: 5, Total: 50},
			"queens:20 is unfinished: its build stopped with 10% counted (5 of 50 work units); 'solcat build queens:20 --count-only' resumes it"},
		{"counted by another solver", builder.Unfinished{Puzzle: q20, CountOnly: true, Foreign: true},
			"queens:20 is unfinished: an earlier solcat began counting it, and this one cannot use its work; 'solcat build queens:20 --count-only' counts it again"},
		{"searching", builder.Unfinished{Puzzle: m5, Search: true, Percent: 3, Done: 1, Total: 30},
			"magic:5 is unfinished: its class search is 3% done (1 of 30 units), then the classes are written; 'solcat build magic:5' resumes it"},
		{"running", builder.Unfinished{Puzzle: q14, Running: true, Writer: catfile.Holder{Command: "another solcat"}},
			"queens:14 is being built: just begun, by another solcat; wait for the build to finish"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Describe(tc.u).Line; got != tc.want {
				t.Errorf("%q\nwant %q", got, tc.want)
			}
		})
	}
}
