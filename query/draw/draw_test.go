package draw

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"solcat/canon"
	"solcat/query"
)

// elements parses an SVG document and counts its elements by name; it
// fails the test if the document is not well-formed XML.
func elements(t *testing.T, svg string) map[string]int {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(svg))
	count := map[string]int{}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return count
		}
		if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, svg)
		}
		if e, ok := tok.(xml.StartElement); ok {
			count[e.Name.Local]++
		}
	}
}

func TestDrawings(t *testing.T) {
	queens8 := canon.Puzzle{Kind: canon.Queens, N: 8}
	magic4 := canon.Puzzle{Kind: canon.Magic, N: 4}
	magic3 := canon.Puzzle{Kind: canon.Magic, N: 3}
	square4 := []byte{1, 2, 15, 16, 12, 14, 3, 5, 13, 7, 10, 4, 8, 11, 6, 9}
	for _, tc := range []struct {
		name string
		svg  string
		want map[string]int // elements and how many
	}{
		{"queens board", Solution(queens8, []byte{2, 4, 1, 7, 0, 6, 3, 5}, Options{Title: "a <board> & more"}),
			map[string]int{"svg": 1, "title": 1, "polygon": 8, "circle": 8, "path": 2}},
		{"magic grid", Solution(magic3, []byte{2, 7, 6, 9, 5, 1, 4, 3, 8}, Options{}), map[string]int{"svg": 1, "text": 9, "path": 1}},
		{"order-4 pairs", Solution(magic4, square4, Options{Pairs: true}), map[string]int{"text": 16, "g": 8, "circle": 16, "path": 9}},
		{"bars", Bars([]query.StatsRow{{Value: 1, Solutions: 3, Share: 0.75}, {Value: 2, Label: "II", Solutions: 1, Share: 0.25}}, Options{}),
			map[string]int{"rect": 2, "title": 2, "text": 4}},
		{"heat map", Heat([]string{"1", "2"}, []string{"a", "b", "c"}, [][]int64{{0, 1, 2}, {3, 4, 5}}, Options{}),
			map[string]int{"rect": 7, "title": 6, "linearGradient": 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := elements(t, tc.svg)
			for name, n := range tc.want {
				if got[name] != n {
					t.Errorf("%d <%s>, want %d: %v", got[name], name, n, got)
				}
			}
			if strings.Contains(tc.svg, "<script") || strings.Contains(tc.svg, "href=") {
				t.Errorf("a drawing with a script or a link: %s", tc.svg)
			}
		})
	}
}
