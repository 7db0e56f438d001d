package console

import (
	"strings"
	"testing"
)

// TestErrorLine cuts what a long input repeats in an error line, leaves
// inputs of ordinary length whole and escapes what does not print.
func TestErrorLine(t *testing.T) {
	long := strings.Repeat("b", 5000)
	path := "/data/" + strings.Repeat("c", 150) + "/cat.db"
	for _, tc := range []struct {
		name   string
		msg    string
		inputs []string
		want   string
	}{
		{"short", "unknown flag --x", []string{"--x"}, "unknown flag --x"},
		{"ordinary names are whole, twice", "cannot read " + path + ": open " + path + ": no such file", []string{path},
			"cannot read " + path + ": open " + path + ": no such file"},
		// The space before it is the input's too.
		{"long, once", "no such column: " + long, []string{"SELECT " + long}, "no such column: " + strings.Repeat("b", 199) + "…"},
		{"long, twice", `kind "` + long + `:8": "` + long + `"`, []string{long + ":8"},
			`kind "` + strings.Repeat("b", 100) + `…": "` + strings.Repeat("b", 100) + `…"`},
		{"long, as %q writes it", `"` + long + `\x1b"`, []string{long + "\x1b"}, `"` + strings.Repeat("b", 200) + `…"`},
		{"long, white space joined", "near " + long + " x", []string{"SELECT\n" + long + "\t\tx"}, "near " + strings.Repeat("b", 199) + "…"},
		{"a long remedy leaves less", "no such table: " + long + "; " + strings.Repeat("r", 100), []string{long},
			"no such table: " + strings.Repeat("b", 240-len("no such table: ; ")-100-3) + "…; " + strings.Repeat("r", 100)},
		{"control characters", "bad \x1b[31m\x07\x00 \u202e\xff; x", nil, `bad \x1b[31m\a\x00 \u202e\xff; x`},
		{"line breaks", "two\nlines\r\n\tand tabs", nil, "two lines and tabs"},
		{"escapes count in the cut", "x " + strings.Repeat("\x1b", 300), []string{strings.Repeat("\x1b", 300)}, "x " + strings.Repeat(`\x1b`, 50) + "…"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ErrorLine(tc.msg, tc.inputs); got != tc.want {
				t.Errorf("%q\nwant %q", got, tc.want)
			}
		})
	}
}
