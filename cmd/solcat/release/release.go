// Package release says what this solcat binary is: its module version,
// revision, Go and the newest catalog schema it knows, from the build
// information Go records.
package release

import (
	"fmt"
	"runtime/debug"

	"solcat/migrations"
	"solcat/query/records"
)

// Version is what this binary is: from the build information Go records.
type Version struct {
	Module   string // the module version: v1.2.3, or (devel) for a build from a clone
	Revision string // the VCS revision built, if known
	Time     string // its commit time
	Modified bool   // built with uncommitted changes
	Go       string
	Schema   int64 // the newest catalog schema it knows
}

func Read() Version {
	v := Version{Module: "(devel)", Schema: migrations.Latest()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		v.Go = bi.GoVersion
		if bi.Main.Version != "" {
			v.Module = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Revision = s.Value
			case "vcs.time":
				v.Time = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	return v
}

func (v Version) String() string {
	rev := "unknown revision"
	if v.Revision != "" {
		rev = "revision " + v.Revision[:min(len(v.Revision), 12)]
		if v.Time != "" {
			rev += " of " + v.Time
		}
		if v.Modified {
			rev += ", with changes"
		}
	}
	return fmt.Sprintf("solcat %s (%s), %s, catalog schema %d", v.Module, rev, v.Go, v.Schema)
}

func (v Version) Object() records.Object {
	return records.Obj("version", v.Module, "revision", v.Revision, "time", v.Time, "modified", v.Modified, "go", v.Go, "schema", v.Schema)
}
