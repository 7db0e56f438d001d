package records

import "testing"

func TestFormatOfFile(t *testing.T) {
	for name, want := range map[string]Format{
		"a.csv": CSV, "A.CSV": CSV, "dir.x/b.jsonl": JSONL, "c.ndjson": JSONL,
		"d.parquet": Parquet, "e.json": JSON, "f.txt": "", "csv": "", "": "",
	} {
		if got := FormatOfFile(name); got != want {
			t.Errorf("FormatOfFile(%q) = %q, want %q", name, got, want)
		}
	}
}
