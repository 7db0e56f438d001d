// Package records is how solcat writes what it answers: the shape of each
// kind of record (a solution, a class, a puzzle's record, a class shown
// with its members, a verify report) and the formats they are written in
// (text, json, jsonl, csv, and Parquet for exports), so that one thing has
// one key, and one shape, in every command and format. It writes what the
// query package answers and never plans or reads a catalog itself.
package records

import (
	"path/filepath"
	"strings"
)

// Format is an output format.
type Format string

const (
	Text  Format = "text"  // for people; solutions as in USACO: 1-based numbers separated by spaces
	JSON  Format = "json"  // one JSON document
	JSONL Format = "jsonl" // one JSON object per line
	CSV   Format = "csv"   // a header row, then one row per item
	// Parquet is the Parquet output format (export only).
	Parquet Format = "parquet"
)

// Formats lists the formats of records, for help and errors.
var Formats = []Format{Text, JSON, JSONL, CSV}

// ParseFormat reads a format name, in any case, that allowed holds.
func ParseFormat(text string, allowed ...Format) (Format, bool) {
	f := Format(strings.ToLower(text))
	for _, a := range allowed {
		if f == a {
			return f, true
		}
	}
	return "", false
}

// FileExtensions are the file name extensions an export's format follows,
// in the order help lists them.
var FileExtensions = []struct {
	Ext    string
	Format Format
}{{".csv", CSV}, {".json", JSON}, {".jsonl", JSONL}, {".ndjson", JSONL}, {".parquet", Parquet}}

// FormatOfFile is the export format a file name asks for by its extension
// (FileExtensions), or "" for any other name.
func FormatOfFile(name string) Format {
	ext := strings.ToLower(filepath.Ext(name))
	for _, fe := range FileExtensions {
		if fe.Ext == ext {
			return fe.Format
		}
	}
	return ""
}

// ExtensionList is FileExtensions for help: ".csv, .json, .jsonl, .ndjson,
// .parquet".
func ExtensionList() string {
	var exts []string
	for _, fe := range FileExtensions {
		exts = append(exts, fe.Ext)
	}
	return strings.Join(exts, ", ")
}
