package main

import (
	"encoding/json"
	"io"
	"strings"

	"solcat/query/records"
)

// writeJSON writes v as indented JSON and a newline.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// rawJSON embeds JSON text that a query writer already produced.
type rawJSON string

func (r rawJSON) MarshalJSON() ([]byte, error) { return []byte(strings.TrimSpace(string(r))), nil }

// printOne prints one record: a document in json, a line in jsonl, a row
// (with its header) in csv.
func printOne(e *env, format records.Format, headers bool, o records.Object) error {
	p := records.NewPrinter(e.stdout, format, headers)
	if format == records.JSON || format == records.JSONL {
		return p.WriteDocument(o)
	}
	if err := p.Write(o); err != nil {
		return err
	}
	return p.Close()
}
