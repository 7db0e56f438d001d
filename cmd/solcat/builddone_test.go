package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildLineSeparators: the line a build prints when it is done, or
// finds the puzzle built, writes its counts with separators, as info does.
func TestBuildLineSeparators(t *testing.T) {
	db := filepath.Join(t.TempDir(), "c.db")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"stored", []string{"build", "queens:11"}, "queens:11  2,680 solutions, 341 classes  matches OEIS  "},
		{"counted", []string{"build", "queens:12", "--count-only"}, "queens:12  14,200 solutions, 1,787 classes  matches OEIS  "},
		{"already built", []string{"build", "queens:11"}, "queens:11  already built: 2,680 solutions, 341 classes; use --force to rebuild\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := solcatDB(db, tc.args...)
			if code != 0 || !strings.HasPrefix(out, tc.want) {
				t.Errorf("%v: exit %d, %q %s; want it to begin %q", tc.args, code, out, errOut, tc.want)
			}
		})
	}
}
