package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBashCompletion runs bash's completion function, as 'solcat
// completion bash --code' defines it, on command lines as bash hands them
// over: the word completed is what follows the last of bash's word breaks
// (COMP_WORDBREAKS, ':' among them). Each answer is put in place of that
// word, and the line it makes is compared: the colon stays inside the
// puzzle's name, and the answers are those of the puzzle on the line.
// The code is asked for once and sourced in each case (TestCompletion
// sources it as 'source <(solcat completion bash --code)').
func TestBashCompletion(t *testing.T) {
	t.Parallel() // reads the shared catalog, writes files of its own (see TestMain)
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed: its completion function is not run")
	}
	bin := binary(t)
	cases := []struct {
		line    string
		want    []string // lines the answers make, each in full
		notWant []string
		nospace bool // bash is told to put no space after the answer
	}{
		{"solcat count queens:1", []string{"solcat count queens:1", "solcat count queens:10", "solcat count queens:14"}, []string{"solcat count queens:queens:1"}, false},
		{"solcat count queens:", []string{"solcat count queens:1", "solcat count queens:8"}, []string{"solcat count queens:queens:1"}, false},
		{"solcat count que", []string{"solcat count queens:8"}, nil, false},
		{"solcat show magic:", []string{"solcat show magic:4"}, []string{"solcat show magic:queens:8"}, false},
		{"solcat count magic:4 --prop ", []string{"solcat count magic:4 --prop pandiagonal", "solcat count magic:4 --prop dudeney-VI"}, []string{"solcat count magic:4 --prop asymmetric"}, false},
		{"solcat count queens:8 --prop ", []string{"solcat count queens:8 --prop asymmetric"}, []string{"solcat count queens:8 --prop pandiagonal"}, false},
		{"solcat count queens:20 --prop ", []string{"solcat count queens:20 --prop toroidal", "solcat count queens:20 --prop superqueen"}, nil, false},
		{"solcat count magic:3 --prop d", nil, []string{"solcat count magic:3 --prop dudeney-I"}, false},
		{"solcat stats queens:8 --by ", []string{"solcat stats queens:8 --by orbit"}, []string{"solcat stats queens:8 --by group"}, false},
		{"solcat stats magic:4 --by ", []string{"solcat stats magic:4 --by group"}, nil, false},
		{"solcat cou", []string{"solcat count"}, nil, false},
		{"solcat stats queens:8 --by r", []string{"solcat stats queens:8 --by row:"}, nil, true},
		{"solcat stats queens:8 --by row:", []string{"solcat stats queens:8 --by row:1", "solcat stats queens:8 --by row:8"}, []string{"solcat stats queens:8 --by row:9"}, false},
		{"solcat stats magic:4 --by prop:p", []string{"solcat stats magic:4 --by prop:pandiagonal"}, nil, false},
		{"solcat stats queens:8 --by o", []string{"solcat stats queens:8 --by orbit"}, nil, false},
		{"solcat help cou", []string{"solcat help count"}, nil, false},
		{"solcat help ", []string{"solcat help build", "solcat help stats"}, nil, false},
	}
	code, err := exec.Command(bin, "completion", "bash", "--code").Output()
	if err != nil {
		t.Fatalf("solcat completion bash --code: %v", err)
	}
	codeFile := filepath.Join(t.TempDir(), "completion.bash")
	if err := os.WriteFile(codeFile, code, 0o644); err != nil {
		t.Fatal(err)
	}
	script := `source "$SOLCAT_CODE" || exit 1
compopt() { told="$1 $2"; } # bash's own works only while it completes
COMP_WORDBREAKS=$' \t\n"'"'"'><=;|&(:'
COMP_LINE=$LINE; COMP_POINT=${#LINE}
cur=${LINE##*[$COMP_WORDBREAKS]}
rest=${LINE%"$cur"}
prev=${rest%[$COMP_WORDBREAKS]}; prev=${prev##*[$COMP_WORDBREAKS]}
_solcat_complete solcat "$cur" "$prev"
[ -n "$told" ] && echo "compopt $told" >&2
for answer in "${COMPREPLY[@]}"; do printf '%s\n' "$rest$answer"; done
`
	for _, tc := range cases {
		t.Run(tc.line, func(t *testing.T) {
			cmd := exec.Command(bash, "--norc", "--noprofile", "-c", script)
			cmd.Env = append(os.Environ(), "SOLCAT_CODE="+codeFile, "LINE="+tc.line, "SOLCAT_DB="+catalogPath)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("bash: %v\n%s%s", err, out, stderr.String())
			}
			if nospace := strings.Contains(stderr.String(), "compopt -o nospace"); nospace != tc.nospace {
				t.Errorf("nospace %v, want %v", nospace, tc.nospace)
			}
			got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("answers make %q, not %q", got, w)
				}
			}
			for _, w := range tc.notWant {
				if slices.Contains(got, w) {
					t.Errorf("answers make %q, among them %q", got, w)
				}
			}
		})
	}
}
