package main

import (
	"strings"
	"testing"

	"solcat/cmd/solcat/help"
)

// TestHelpTextsWhole checks that no command's --help shows the Go or
// template text meant to write a value into it.
func TestHelpTextsWhole(t *testing.T) {
	names := help.Names()
	if len(names) == 0 {
		t.Fatal("no help texts")
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			args := []string{name, "--help"}
			if name == "solcat" {
				args = args[1:]
			}
			code, out, errOut := solcat(args...)
			if code != 0 || !strings.Contains(out, "Usage: solcat") {
				t.Fatalf("%v: exit %d, %q %q", args, code, out, errOut)
			}
			for _, bad := range []string{"` +", "+ `", "{{", "}}", "strconv."} {
				if strings.Contains(out, bad) {
					t.Errorf("holds %q:\n%s", bad, out)
				}
			}
		})
	}
	if _, out, _ := solcat("sql", "--help"); !strings.Contains(strings.Join(strings.Fields(out), " "), "larger than 16 MB is refused") {
		t.Errorf("sql's help does not name the 16 MB limit:\n%s", out)
	}
}
