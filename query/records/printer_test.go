package records

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestPrinterStreamsAsBefore checks that records of scalars, which the
// printer writes field by field, come out byte for byte as json.Marshal,
// json.MarshalIndent and encoding/csv write them, strings of every kind
// (long ones cut into pieces, invalid UTF-8, characters JSON escapes)
// included; and that a blob is its byte values in every format.
func TestPrinterStreamsAsBefore(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const chunk = 1 << 16 // longer than bufio's buffer
	alphabet := []string{"a", " ", ",", "\"", "\n", "\r", "\t", "\b", "\f", "\x1b", "\x7f", "\u2029", ">", "\x00", "<", "&", "\u2028", "é", "€", "𝄞", "\xff", "\x80", "\xe2\x82", "\\", "."}
	randomString := func(n int) string {
		var b strings.Builder
		for b.Len() < n {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	cases := []struct {
		name string
		rec  Object
	}{
		{"numbers", Obj("a", 1, "b", int64(-7), "c", 1.5e300, "d", -0.0, "e", 0.1, "f", 1e21, "g", 1e-7)},
		{"nil and bools", Obj("a", nil, "b", true, "c", false)},
		{"empty string", Obj("a", "")},
		{"a space first", Obj("a", " x", "b", "\tx", "c", "\u00a0x")},
		{"csv specials", Obj("a", "x,y", "b", `say "hi"`, "c", "two\nlines", "d", "cr\r", "e", `\.`, "f", `\.x`)},
		{"odd names", Obj("a \"b\"", 1, "<&>", 2, "", 3, "\x1b", 4)},
		{"short random", Obj("a", randomString(50), "b", randomString(300))},
		// Longer than the printer's buffer.
		{"long random", Obj("a", randomString(3*chunk+17))},
		{"long ASCII", Obj("a", strings.Repeat("x", 2*chunk+1))},
		{"long four-byte characters", Obj("a", strings.Repeat("𝄞", chunk/2))},
		{"long at an offset", Obj("a", "ab"+strings.Repeat("€", chunk))},
		{"long invalid", Obj("a", strings.Repeat("\x80", chunk+5)+strings.Repeat("\xf0\x9d\x84\x9e\x80\x80", chunk/3))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !scalars(tc.rec) {
				t.Fatal("not a record of scalars")
			}
			var js, jsl, cs bytes.Buffer
			for _, out := range []struct {
				buf    *bytes.Buffer
				format Format
			}{{&js, JSON}, {&jsl, JSONL}, {&cs, CSV}} {
				p := NewPrinter(out.buf, out.format, true)
				for range 2 {
					if err := p.Write(tc.rec); err != nil {
						t.Fatal(err)
					}
				}
				if err := p.Close(); err != nil {
					t.Fatal(err)
				}
			}
			indented, err := json.MarshalIndent(tc.rec, "  ", "  ")
			if err != nil {
				t.Fatal(err)
			}
			if want := "[\n  " + string(indented) + ",\n  " + string(indented) + "\n]\n"; js.String() != want {
				t.Errorf("json:\n%q\nwant\n%q", clip(js.String()), clip(want))
			}
			compact, _ := json.Marshal(tc.rec)
			if want := string(compact) + "\n" + string(compact) + "\n"; jsl.String() != want {
				t.Errorf("jsonl:\n%q\nwant\n%q", clip(jsl.String()), clip(want))
			}
			var want bytes.Buffer
			w := csv.NewWriter(&want)
			w.Write(names(tc.rec))
			w.Write(texts(tc.rec))
			w.Write(texts(tc.rec))
			w.Flush()
			if cs.String() != want.String() {
				t.Errorf("csv:\n%q\nwant\n%q", clip(cs.String()), clip(want.String()))
			}
		})
	}

	blob := Obj("id", 1, "cells", []byte{0, 7, 255}, "none", []byte{})
	want := map[Format]string{
		JSON:  "[\n  {\n    \"id\": 1,\n    \"cells\": [0, 7, 255],\n    \"none\": []\n  }\n]\n",
		JSONL: "{\"id\":1,\"cells\":[0,7,255],\"none\":[]}\n",
		CSV:   "id,cells,none\n1,0 7 255,\n",
		Text:  "id  cells    none\n1   0 7 255  \n",
	}
	for _, format := range Formats {
		t.Run("blob "+string(format), func(t *testing.T) {
			var b bytes.Buffer
			p := NewPrinter(&b, format, true)
			p.Write(blob)
			p.Close()
			if b.String() != want[format] {
				t.Errorf("%q, want %q", b.String(), want[format])
			}
		})
	}
}

// TestTextTable checks a text table's alignment: values padded to their
// column's widest in a block of rows, a value wider than a column may be
// on a row of its own (the rows around it aligned apart), a tab or a line
// break in a value kept as text, and a block that ends after textBlock
// rows.
func TestTextTable(t *testing.T) {
	wide := strings.Repeat("w", widestColumn+1)
	cases := []struct {
		name string
		rows []Object
		want string
	}{
		{"aligned", []Object{Obj("a", "x", "b", 1), Obj("a", "yyy", "b", 22)}, "a    b\nx    1\nyyy  22\n"},
		{"wide value", []Object{Obj("a", "x", "b", 1), Obj("a", wide, "b", 2), Obj("a", "yy", "b", 3)}, "a  b\nx  1\n" + wide + "  2\nyy  3\n"},
		{"tab and line break", []Object{Obj("a", "x\ty", "b", 1), Obj("a", "p\nq", "b", 2)}, "a    b\nx\ty  1\np\nq  2\n"},
		{"invalid UTF-8", []Object{Obj("a", "x\xffy", "b", 1)}, "a    b\nx\uFFFDy  1\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			p := NewPrinter(&b, Text, true)
			for _, r := range tc.rows {
				p.Write(r)
			}
			p.Close()
			if b.String() != tc.want {
				t.Errorf("%q, want %q", clip(b.String()), clip(tc.want))
			}
		})
	}
	t.Run("blocks", func(t *testing.T) {
		var b bytes.Buffer
		p := NewPrinter(&b, Text, false)
		for i := range textBlock + 1 {
			p.Write(Obj("a", strings.Repeat("x", 1+i/textBlock*5), "b", i))
		}
		p.Close()
		lines := strings.Split(b.String(), "\n")
		if lines[0] != "x  0" || lines[textBlock] != "xxxxxx  200" {
			t.Errorf("first and last rows %q, %q", lines[0], lines[textBlock])
		}
	})
}

func clip(s string) string {
	if len(s) > 400 {
		return s[:200] + "..." + s[len(s)-200:]
	}
	return s
}

// texts is a record's values as a CSV row has them: as textOf writes
// them, nil as an empty field.
func texts(o Object) []string {
	out := make([]string, len(o))
	for i, f := range o {
		if f.Value != nil {
			out[i] = textOf(f.Value)
		}
	}
	return out
}
