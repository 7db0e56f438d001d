// Package release says what this solcat binary is: its module version,
// revision, Go and the newest catalog schema it knows, from the build
// information Go records or from a stamp set when it is built:
//
//	go build -ldflags "-X solcat/cmd/solcat/release.stampVersion=v1.2.3 -X solcat/cmd/solcat/release.stampRevision=$(git rev-parse HEAD)" ./cmd/solcat
//
// Every place that names the version (--version, the web's footer, a
// Parquet file's created_by and solcat.version) takes it from Read, so
// they say the same.
package release

import (
	"fmt"
	"runtime/debug"

	"solcat/canon"
	"solcat/migrations"
	"solcat/query/records"
)

// Set with -ldflags -X at build time; they win over the build information.
var (
	stampVersion  string
	stampRevision string
)

// Devel is the version of a build with neither a stamp nor a module
// version (a build from a clone without VCS information): one Parquet
// readers and semver tools can parse.
const Devel = "0.0.0-devel"

// Version is what this binary is: from the build information Go records.
type Version struct {
	Module   string // the module version: v1.2.3, or (devel) for a build from a clone
	Revision string // the VCS revision built, if known
	Time     string // its commit time
	Modified bool   // built with uncommitted changes
	Go       string
	Schema   int64 // the newest catalog schema it knows
}

// Read says what this binary is.
func Read() Version {
	v := Version{Module: Devel, Schema: migrations.Latest()}
	if bi, ok := debug.ReadBuildInfo(); ok {
		v.Go = bi.GoVersion
		if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
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
	if stampVersion != "" {
		v.Module = stampVersion
	}
	if stampRevision != "" {
		v.Revision = stampRevision
	}
	return v
}

// Dataset describes an export of puzzle p (the rows filter chose; the
// content hash the catalog records) for its Parquet metadata, the same
// for the CLI and the web.
func (v Version) Dataset(p canon.Puzzle, filter, contentHash string, cells records.CellLayout) records.Dataset {
	return records.Dataset{Puzzle: p, Filter: filter, Version: v.Module, Revision: v.Revision, SchemaVersion: v.Schema,
		ContentHash: contentHash, Cells: cells}
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
