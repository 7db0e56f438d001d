package release

import (
	"strings"
	"testing"

	"solcat/canon"
)

// TestStampWins: a version and revision stamped at build time are what
// Read, String and a Parquet dataset say; without a stamp a build from a
// clone is Devel, never "(devel)".
func TestStampWins(t *testing.T) {
	for _, c := range []struct {
		name, version, revision string
		want                    string
	}{
		{"stamped", "v1.2.3", "abcdef0123456789", "v1.2.3"},
		{"unstamped", "", "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			stampVersion, stampRevision = c.version, c.revision
			defer func() { stampVersion, stampRevision = "", "" }()
			v := Read()
			if v.Module == "(devel)" || v.Module == "" {
				t.Fatalf("module version %q", v.Module)
			}
			if c.want != "" && v.Module != c.want {
				t.Errorf("module version %q, want %q", v.Module, c.want)
			}
			if c.revision != "" && v.Revision != c.revision {
				t.Errorf("revision %q, want %q", v.Revision, c.revision)
			}
			if !strings.HasPrefix(v.String(), "solcat "+v.Module+" (") {
				t.Errorf("String %q does not start with the version %q", v.String(), v.Module)
			}
			d := v.Dataset(canon.Puzzle{Kind: canon.Queens, N: 8}, "", "h", "")
			if d.Version != v.Module || d.Revision != v.Revision || d.SchemaVersion != v.Schema {
				t.Errorf("dataset %+v, version %+v", d, v)
			}
		})
	}
}
