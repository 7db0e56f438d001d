package draw

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
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
			if strings.Contains(tc.svg, "dominant-baseline") {
				t.Errorf("a drawing with dominant-baseline, which rsvg and Inkscape place high: %s", tc.svg)
			}
			if strings.Contains(tc.svg, "<script") || strings.Contains(tc.svg, "href=") {
				t.Errorf("a drawing with a script or a link: %s", tc.svg)
			}
		})
	}
}

// svgText is a text element of a drawing: where it stands and what it says.
type svgText struct {
	x, y, size float64
	text       string
}

// texts and circles read a drawing's text elements and circles, with the
// translation of an enclosing group applied.
func shapes(t *testing.T, svg string) (texts []svgText, circles [][3]float64) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(svg))
	var dx, dy float64
	var cur *svgText
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return texts, circles
		}
		if err != nil {
			t.Fatalf("not well-formed: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			a := map[string]string{}
			for _, at := range e.Attr {
				a[at.Name.Local] = at.Value
			}
			f := func(k string) float64 {
				v, err := strconv.ParseFloat(a[k], 64)
				if err != nil {
					t.Fatalf("<%s %s=%q>: %v", e.Name.Local, k, a[k], err)
				}
				return v
			}
			switch e.Name.Local {
			case "g":
				if tr := a["transform"]; tr != "" {
					if _, err := fmt.Sscanf(tr, "translate(%g,%g)", &dx, &dy); err != nil {
						t.Fatalf("transform %q: %v", tr, err)
					}
				}
			case "text":
				if _, ok := a["dominant-baseline"]; ok {
					t.Errorf("a text with dominant-baseline, which rsvg and Inkscape place high: %v", e)
				}
				cur = &svgText{x: f("x") + dx, y: f("y") + dy, size: f("font-size")}
			case "circle":
				circles = append(circles, [3]float64{f("cx") + dx, f("cy") + dy, f("r")})
			}
		case xml.CharData:
			if cur != nil {
				cur.text += string(e)
			}
		case xml.EndElement:
			if e.Name.Local == "text" && cur != nil {
				texts = append(texts, *cur)
				cur = nil
			}
		}
	}
}

// TestTextPlacement holds that a value's digits stand centred in their
// cell by the font's metrics (baseline 0.35 em below the centre), with no
// dominant-baseline, and that the dots of Dudeney's pairs stay clear of
// the digits.
func TestTextPlacement(t *testing.T) {
	magic3 := canon.Puzzle{Kind: canon.Magic, N: 3}
	magic4 := canon.Puzzle{Kind: canon.Magic, N: 4}
	square4 := []byte{1, 2, 15, 16, 12, 14, 3, 5, 13, 7, 10, 4, 8, 11, 6, 9}
	for _, tc := range []struct {
		name   string
		p      canon.Puzzle
		cells  []byte
		o      Options
		offset float64 // where the grid begins
		texts  int     // text elements: the values, and the coordinates
	}{
		{"magic:3", magic3, []byte{2, 7, 6, 9, 5, 1, 4, 3, 8}, Options{}, 0, 9},
		{"magic:4 pairs", magic4, square4, Options{Pairs: true}, 0, 16},
		{"magic:4 pairs with coordinates", magic4, square4, Options{Pairs: true, Coords: true}, coordMargin, 16 + 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			texts, circles := shapes(t, Solution(tc.p, tc.cells, tc.o))
			if len(texts) != tc.texts {
				t.Fatalf("%d texts, want %d", len(texts), tc.texts)
			}
			n := tc.p.N
			var digits []svgText
			for _, tx := range texts {
				if tx.x >= tc.offset && tx.y >= tc.offset {
					digits = append(digits, tx)
				}
			}
			if len(digits) != n*n {
				t.Fatalf("%d values in the grid, want %d", len(digits), n*n)
			}
			for i, tx := range digits {
				cx := tc.offset + float64((i%n)*cell+cell/2)
				cy := tc.offset + float64((i/n)*cell+cell/2)
				if tx.text != strconv.Itoa(int(tc.cells[i])) || tx.x != cx || math.Abs(tx.y-(cy+0.35*tx.size)) > 0.05 {
					t.Errorf("value %d: %q at (%g, %g) size %g, want %d at (%g, %g+0.35em)", i, tx.text, tx.x, tx.y, tx.size, tc.cells[i], cx, cy)
				}
				// The digits' box: 0.55 em a digit wide, 0.7 em high.
				w, h := 0.55*tx.size*float64(len(tx.text)), 0.7*tx.size
				for _, c := range circles {
					nx := math.Max(tx.x-w/2, math.Min(c[0], tx.x+w/2))
					ny := math.Max(tx.y-h, math.Min(c[1], tx.y))
					if math.Hypot(c[0]-nx, c[1]-ny) < c[2] {
						t.Errorf("a pair's dot at (%g, %g) lies over the value %s", c[0], c[1], tx.text)
					}
				}
			}
			if tc.o.Pairs && len(circles) != n*n {
				t.Errorf("%d dots, want %d", len(circles), n*n)
			}
			if tc.o.Coords {
				for k, tx := range texts[:2*n] { // row k, column k, in turn
					if tx.text != strconv.Itoa(k/2+1) {
						t.Errorf("coordinate %d says %q, want %d", k, tx.text, k/2+1)
					}
				}
			}
		})
	}
}
