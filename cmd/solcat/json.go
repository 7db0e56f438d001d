package main

import (
	"encoding/json"
	"io"
	"strings"
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
