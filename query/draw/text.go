package draw

import (
	"strconv"
	"strings"
)

// TextHeat draws a matrix of counts as a grid of text, for a terminal:
// the column labels over it, each row's label before it, each count right
// aligned and followed by a shade that, as in Heat, runs from the smallest
// count to the largest (ascii: . : - = + * # % @; else ░ ▒ ▓ █ over a
// blank). No line ends in spaces.
func TextHeat(rowLabels, colLabels []string, counts [][]int64, ascii bool) string {
	shades := []string{" ", "░", "▒", "▓", "█"}
	if ascii {
		shades = []string{" ", ".", ":", "-", "=", "+", "*", "#", "%", "@"}
	}
	least, most := int64(0), int64(0)
	first := true
	width := 1
	for _, row := range counts {
		for _, v := range row {
			if first || v < least {
				least = v
			}
			if first || v > most {
				most = v
			}
			first = false
			width = max(width, len(strconv.FormatInt(v, 10)))
		}
	}
	for _, l := range colLabels {
		width = max(width, len(l))
	}
	labelW := 0
	for _, l := range rowLabels {
		labelW = max(labelW, len(l))
	}
	var b strings.Builder
	line := func(s string) { b.WriteString(strings.TrimRight(s, " ") + "\n") }
	head := strings.Repeat(" ", labelW)
	for _, l := range colLabels {
		head += " " + pad(l, width) + " "
	}
	line(head)
	for i, l := range rowLabels {
		row := pad(l, labelW)
		for _, v := range counts[i] {
			k := int(heatShade(v, least, most)*float64(len(shades)-1) + 0.5)
			if most == least {
				k = len(shades) / 2
			}
			row += " " + pad(strconv.FormatInt(v, 10), width) + shades[k]
		}
		line(row)
	}
	return b.String()
}

// pad right-aligns s in a field of width w.
func pad(s string, w int) string {
	if len(s) >= w {
		return s
	}
	return strings.Repeat(" ", w-len(s)) + s
}
