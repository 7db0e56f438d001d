package draw

import (
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"regexp"
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
		{"order-4 grid and pairs", GridAndPairs(magic4, square4, Options{Title: "class 1", Coords: true}),
			map[string]int{"svg": 3, "title": 1, "text": 2 * (16 + 8), "g": 2 + 8, "circle": 16, "path": 1 + 9}},
		{"bars", Bars([]query.StatsRow{{Value: 1, Solutions: 3, Share: 0.75}, {Value: 2, Label: "II", Solutions: 1, Share: 0.25}}, Options{}),
			map[string]int{"rect": 2, "title": 2, "text": 4}},
		{"heat map", Heat([]string{"1", "2"}, []string{"a", "b", "c"}, [][]int64{{0, 1, 2}, {3, 4, 5}}, Options{}),
			map[string]int{"rect": 7, "title": 6, "linearGradient": 1, "text": 3 + 2 + 6 + 2}},
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

// TestHeat holds that a heat map's shades run from its smallest count to
// its largest (magic:4's cells hold 400 to 480, not 0 to 480) and that
// every count is written in its cell, centred, and in the legend's ends.
func TestHeat(t *testing.T) {
	fill := regexp.MustCompile(`<rect x="(\d+)" y="(\d+)" width="(\d+)" height="\d+" fill="(rgb\([^)]*\))"><title>[^<]*: (-?\d+)</title>`)
	for _, tc := range []struct {
		name   string
		counts [][]int64
		shades map[int64]string // a count and its colour
		legend [2]string
	}{
		{"magic:4 like", [][]int64{{400, 440}, {480, 400}}, map[int64]string{400: "rgb(250,248,240)", 440: "rgb(150,163,195)", 480: "rgb(50,78,150)"}, [2]string{"400", "480"}},
		{"from zero", [][]int64{{0, 5}, {10, 0}}, map[int64]string{0: "rgb(250,248,240)", 5: "rgb(150,163,195)", 10: "rgb(50,78,150)"}, [2]string{"0", "10"}},
		{"all equal", [][]int64{{7, 7}, {7, 7}}, map[int64]string{7: "rgb(150,163,195)"}, [2]string{"7", "7"}},
		{"wide counts", [][]int64{{1234567, 2}, {3, 4}}, map[int64]string{2: "rgb(250,248,240)", 1234567: "rgb(50,78,150)"}, [2]string{"2", "1234567"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			svg := Heat([]string{"r1", "r2"}, []string{"c1", "c2"}, tc.counts, Options{})
			texts, _ := shapes(t, svg)
			written := map[string]svgText{}
			for _, tx := range texts {
				written[fmt.Sprintf("%g,%g", tx.x, tx.y)] = tx
			}
			rects := fill.FindAllStringSubmatch(svg, -1)
			if len(rects) != 4 {
				t.Fatalf("%d cells, want 4:\n%s", len(rects), svg)
			}
			for _, m := range rects {
				v, _ := strconv.ParseInt(m[5], 10, 64)
				if want, ok := tc.shades[v]; ok && m[4] != want {
					t.Errorf("count %d in %s, want %s", v, m[4], want)
				}
				x, _ := strconv.Atoi(m[1])
				y, _ := strconv.Atoi(m[2])
				side, _ := strconv.Atoi(m[3])
				at := fmt.Sprintf("%g,%g", float64(x)+float64(side)/2, math.Round((float64(y)+float64(side)/2+0.35*9)*10)/10)
				tx, ok := written[at]
				if !ok || tx.text != m[5] {
					t.Errorf("count %s: no text centred in its cell at %s (%+v)", m[5], at, tx)
				}
				if width := 0.55 * 9 * float64(len(m[5])); width > float64(side) {
					t.Errorf("count %s is %.0f wide, its cell %d", m[5], width, side)
				}
			}
			last := texts[len(texts)-2:]
			if last[0].text != tc.legend[0] || last[1].text != tc.legend[1] {
				t.Errorf("legend %q to %q, want %q to %q", last[0].text, last[1].text, tc.legend[0], tc.legend[1])
			}
		})
	}
}

// TestTextHeat holds the terminal's heat map: labels over and before the
// grid, counts right-aligned, each followed by its shade from the smallest
// count (blank) to the largest (█, or @ in ASCII), no line ending in
// spaces.
func TestTextHeat(t *testing.T) {
	for _, tc := range []struct {
		name   string
		counts [][]int64
		ascii  bool
		want   string
	}{
		{"shades", [][]int64{{0, 5}, {10, 100}}, false, "    a    b\n1   0    5\n2  10  100█\n"},
		{"ascii", [][]int64{{400, 440}, {480, 400}}, true, "    a    b\n1 400  440+\n2 480@ 400\n"},
		{"all equal", [][]int64{{7, 7}, {7, 7}}, false, "  a  b\n1 7▒ 7▒\n2 7▒ 7▒\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := TextHeat([]string{"1", "2"}, []string{"a", "b"}, tc.counts, tc.ascii)
			if got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			for _, line := range strings.Split(got, "\n") {
				if strings.HasSuffix(line, " ") {
					t.Errorf("a line ends in spaces: %q", line)
				}
			}
		})
	}
}
