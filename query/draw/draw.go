// Package draw draws the catalog's answers as SVG, for papers, slides and
// the web page: a solution or class as a board (queens) or a grid (magic
// squares), the complementary pairs of an order-4 square (Dudeney's
// pattern), a distribution as bars and a puzzle's cells as a heat map. It
// writes self-contained SVG text, with no script and no external resource.
package draw

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"solcat/canon"
	"solcat/query"
)

// cell is the side of one square of a board or grid, in SVG units.
const cell = 40

// Options change a drawing.
type Options struct {
	Title  string // shown on hover, and read by screen readers
	Pairs  bool   // magic squares: join each x with its complement N²+1−x (order 4: Dudeney's pattern)
	Coords bool   // number the rows down the left and the columns along the top, as the filters count them
	Scale  float64
}

// coordMargin is the room the coordinates take on the left and at the top.
const coordMargin = 18

// centred writes a text whose digits stand centred on the height cy. No
// dominant-baseline: renderers disagree on it (rsvg and Inkscape set the
// text high); the baseline is placed from the font's metrics instead, a
// sans-serif digit's height being about 0.7 em, so half of it below the
// centre is 0.35 em.
func centred(b *strings.Builder, x, cy float64, size int, anchor, attrs, text string) {
	fmt.Fprintf(b, `<text x="%s" y="%s" text-anchor="%s" font-family="sans-serif" font-size="%d"%s>%s</text>`,
		num(x), num(cy+0.35*float64(size)), anchor, size, attrs, html.EscapeString(text))
}

// num writes a coordinate with at most one decimal.
func num(v float64) string {
	return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64)
}

// Solution draws a solution or a canonical form: a queens board with its
// queens, or a magic square's grid of values.
func Solution(p canon.Puzzle, cells []byte, o Options) string {
	n := p.N
	side := n * cell
	var b strings.Builder
	if o.Coords {
		full := side + coordMargin
		open(&b, full, full, o)
		for k := 0; k < n; k++ {
			centred(&b, float64(coordMargin/2), float64(coordMargin+k*cell+cell/2), 11, "middle", ` fill="#555"`, strconv.Itoa(k+1))
			centred(&b, float64(coordMargin+k*cell+cell/2), float64(coordMargin/2), 11, "middle", ` fill="#555"`, strconv.Itoa(k+1))
		}
		fmt.Fprintf(&b, `<g transform="translate(%d,%d)">`, coordMargin, coordMargin)
	} else {
		open(&b, side, side, o)
	}
	// The board in three elements whatever its size: the light squares, the
	// dark ones (queens) as one path, the grid lines as another.
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#f4f1ea"/>`, side, side)
	var dark, lines strings.Builder
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			if p.Kind == canon.Queens && (r+c)%2 == 1 {
				fmt.Fprintf(&dark, "M%d %dh%dv%dh-%dz", c*cell, r*cell, cell, cell, cell)
			}
		}
	}
	for k := 0; k <= n; k++ {
		fmt.Fprintf(&lines, "M0 %dH%dM%d 0V%d", k*cell, side, k*cell, side)
	}
	if dark.Len() > 0 {
		fmt.Fprintf(&b, `<path d="%s" fill="#c8b9a0"/>`, dark.String())
	}
	fmt.Fprintf(&b, `<path d="%s" stroke="#7a6a55" stroke-width="1" fill="none"/>`, lines.String())
	if p.Kind == canon.Queens {
		for r, c := range cells {
			x, y := int(c)*cell+cell/2, r*cell+cell/2
			// A queen: a crown on a disc, drawn without fonts.
			fmt.Fprintf(&b, `<g fill="#3b2a1a"><circle cx="%d" cy="%d" r="9"/><polygon points="%d,%d %d,%d %d,%d %d,%d %d,%d %d,%d %d,%d"/></g>`,
				x, y+6, x-11, y+2, x-11, y-11, x-5, y-4, x, y-14, x+5, y-4, x+11, y-11, x+11, y+2)
		}
	} else {
		if o.Pairs {
			drawPairs(&b, p, cells)
		}
		for i, v := range cells {
			centred(&b, float64((i%n)*cell+cell/2), float64((i/n)*cell+cell/2), digitSize, "middle", ` fill="#222"`, strconv.Itoa(int(v)))
		}
	}
	if o.Coords {
		b.WriteString("</g>")
	}
	b.WriteString("</svg>")
	return b.String()
}

// GridAndPairs draws a magic square twice, side by side in one drawing:
// its plain grid of values, then the same grid with its complementary
// pairs joined (o.Pairs is ignored), so that the values read clear of the
// arcs on the left.
func GridAndPairs(p canon.Puzzle, cells []byte, o Options) string {
	plain, paired := o, o
	plain.Pairs, paired.Pairs = false, true
	plain.Title, paired.Title, plain.Scale, paired.Scale = "", "", 1, 1
	side := p.N * cell
	if o.Coords {
		side += coordMargin
	}
	const gap = cell / 2
	var b strings.Builder
	open(&b, 2*side+gap, side, o)
	// Nested drawings, each placed by its x.
	b.WriteString(strings.Replace(Solution(p, cells, plain), "<svg ", `<svg x="0" `, 1))
	b.WriteString(strings.Replace(Solution(p, cells, paired), "<svg ", fmt.Sprintf(`<svg x="%d" `, side+gap), 1))
	b.WriteString("</svg>")
	return b.String()
}

// digitSize is the font size of a magic square's values.
const digitSize = cell * 9 / 20

// pairCorner is how far a pair's dot sits left of and below its cell's
// centre: in the cell's lower left corner, clear of the value's digits
// (two digits are about 1.1 em wide and 0.7 em high around the centre).
const pairCorner = 12

// drawPairs joins each value x with N²+1−x, one colour a pair. Each join is
// an arc bent to the left of its way from x to its complement, so pairs that
// share a row or a diagonal stay apart; it ends in a dot in the corner of
// each cell, not on the value.
func drawPairs(b *strings.Builder, p canon.Puzzle, cells []byte) {
	n := p.N
	at := make(map[int]int, len(cells))
	for i, v := range cells {
		at[int(v)] = i
	}
	top := n*n + 1
	for v := 1; 2*v < top; v++ {
		i, j := at[v], at[top-v]
		x1, y1 := (i%n)*cell+cell/2-pairCorner, (i/n)*cell+cell/2+pairCorner
		x2, y2 := (j%n)*cell+cell/2-pairCorner, (j/n)*cell+cell/2+pairCorner
		cx, cy := (x1+x2)/2+(y2-y1)*3/10, (y1+y2)/2-(x2-x1)*3/10
		hue := (v - 1) * 360 / (n * n / 2)
		fmt.Fprintf(b, `<g stroke="hsl(%d,70%%,50%%)" fill="hsl(%d,70%%,50%%)" opacity="0.6"><path d="M%d %dQ%d %d %d %d" stroke-width="4" fill="none"/><circle cx="%d" cy="%d" r="4"/><circle cx="%d" cy="%d" r="4"/></g>`,
			hue, hue, x1, y1, cx, cy, x2, y2, x1, y1, x2, y2)
	}
}

func open(b *strings.Builder, w, h int, o Options) {
	scale := o.Scale
	if scale == 0 {
		scale = 1
	}
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d" role="img">`, w, h, int(float64(w)*scale), int(float64(h)*scale))
	if o.Title != "" {
		fmt.Fprintf(b, "<title>%s</title>", html.EscapeString(o.Title))
	}
}

// Bars draws a distribution: a bar a value, as long as its share.
func Bars(rows []query.StatsRow, o Options) string {
	const rowH, labelW, barW = 22, 70, 360
	h := rowH*len(rows) + 10
	var b strings.Builder
	open(&b, labelW+barW+120, h, o)
	top := 0.0
	for _, r := range rows {
		top = math.Max(top, r.Share)
	}
	for i, r := range rows {
		y := 5 + i*rowH
		label := fmt.Sprint(r.Value)
		if r.Label != "" {
			label = r.Label
		}
		w := 0.0
		if top > 0 {
			w = r.Share / top * barW
		}
		centred(&b, float64(labelW-6), float64(y+rowH/2), 12, "end", "", label)
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="%d" fill="#6b8cae"><title>%s: %s, %s</title></rect>`, labelW, y+3, w, rowH-6, html.EscapeString(label), canon.Plural(r.Solutions, "solution"), canon.Plural(r.Classes, "class"))
		centred(&b, float64(labelW)+w+4, float64(y+rowH/2), 11, "start", ` fill="#444"`, fmt.Sprintf("%d (%.1f%%)", r.Solutions, 100*r.Share))
	}
	b.WriteString("</svg>")
	return b.String()
}

// Heat draws a matrix of counts as shades, with row and column labels and
// each count written in its cell: the darker, the more. The shades run from
// the smallest count to the largest, not from 0, so that counts that differ
// by a few percent (every cell of magic:4 holds 400 to 480) still differ in
// shade; the legend names both ends.
func Heat(rowLabels, colLabels []string, counts [][]int64, o Options) string {
	least, most := int64(math.MaxInt64), int64(math.MinInt64)
	for _, row := range counts {
		for _, v := range row {
			least, most = min(least, v), max(most, v)
		}
	}
	if least > most { // no cells
		least, most = 0, 0
	}
	// A cell is wide enough for its count at font size 9 (a digit about
	// 5.5 units wide).
	digits := max(len(strconv.FormatInt(least, 10)), len(strconv.FormatInt(most, 10)))
	sq := max(26, digits*11/2+8)
	const labelW, labelH, legendH = 56, 24, 34
	w, h := labelW+sq*len(colLabels), labelH+sq*len(rowLabels)+legendH
	w = max(w, labelW+200)
	var b strings.Builder
	open(&b, w, h, o)
	for j, l := range colLabels {
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle" font-family="sans-serif" font-size="10">%s</text>`, labelW+j*sq+sq/2, labelH-8, html.EscapeString(l))
	}
	for i, l := range rowLabels {
		centred(&b, float64(labelW-4), float64(labelH+i*sq+sq/2), 10, "end", "", l)
		for j, v := range counts[i] {
			shade := heatShade(v, least, most)
			fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s"><title>%s, %s: %d</title></rect>`,
				labelW+j*sq, labelH+i*sq, sq-1, sq-1, heatColour(shade), html.EscapeString(l), html.EscapeString(colLabels[j]), v)
			ink := "#222"
			if shade > 0.55 {
				ink = "#fff" // dark shades: light digits
			}
			centred(&b, float64(labelW+j*sq)+float64(sq-1)/2, float64(labelH+i*sq)+float64(sq-1)/2, 9, "middle", ` fill="`+ink+`"`, strconv.FormatInt(v, 10))
		}
	}
	// The legend: the shade of the smallest count to that of the largest.
	y := labelH + sq*len(rowLabels) + 10
	fmt.Fprintf(&b, `<defs><linearGradient id="heat-scale"><stop offset="0" stop-color="%s"/><stop offset="1" stop-color="%s"/></linearGradient></defs>`, heatColour(0), heatColour(1))
	centred(&b, float64(labelW-4), float64(y+6), 10, "end", "", strconv.FormatInt(least, 10))
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="120" height="12" fill="url(#heat-scale)" stroke="#ccc"/>`, labelW, y)
	centred(&b, float64(labelW+124), float64(y+6), 10, "start", "", strconv.FormatInt(most, 10))
	b.WriteString("</svg>")
	return b.String()
}

// heatShade places v between the smallest and the largest count, 0 to 1;
// when all counts are equal, in the middle.
func heatShade(v, least, most int64) float64 {
	if most == least {
		return 0.5
	}
	return float64(v-least) / float64(most-least)
}

// heatColour is a shade's colour: from a pale cream (0) to a deep blue (1).
func heatColour(shade float64) string {
	return fmt.Sprintf("rgb(%d,%d,%d)", int(250-200*shade), int(248-170*shade), int(240-90*shade))
}
