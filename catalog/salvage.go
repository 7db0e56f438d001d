package catalog

import (
	"fmt"
	"sort"

	"github.com/dustin/go-humanize"

	"solcat/canon"
	"solcat/catalog/catfile"
	"solcat/catalog/pagefile"
)

// Salvage is what can still be told of a catalog SQLite cannot open (a
// file cut short, a schema damaged): the puzzles it lists and whether the
// pages of each one's tables are all there to read.
type Salvage struct {
	Problems []string // the file's: cut short, its schema or list of puzzles partly lost
	Puzzles  []SalvagedPuzzle
}

// SalvagedPuzzle is one puzzle the catalog lists: Lost says why it cannot
// be read, or is empty when every page of its tables is in the file.
type SalvagedPuzzle struct {
	Name               string
	Storage            Storage
	Solutions, Classes int64 // as its record gives them
	Pages              int   // its tables' pages read
	Lost               string
}

// SalvageFile reads what it can of the catalog file at path with the page
// reader alone (no SQLite): its schema, its list of puzzles, and every page
// of each puzzle's tables. The error is a file that is not an SQLite file
// at all, or cannot be opened.
func SalvageFile(path string) (Salvage, error) {
	pf, inFile, inHeader, err := pagefile.OpenDamaged(catfile.RealFile(path))
	if err != nil {
		return Salvage{}, err
	}
	defer pf.Close()
	var s Salvage
	if inFile < inHeader {
		s.Problems = append(s.Problems, fmt.Sprintf("the file is cut short: it holds %s of the %s pages its header gives (%s of %s bytes)",
			humanize.Comma(int64(inFile)), humanize.Comma(int64(inHeader)),
			humanize.Comma(int64(inFile)*int64(pf.PageSize)), humanize.Comma(int64(inHeader)*int64(pf.PageSize))))
	}
	// The schema: each table's name and root page.
	roots := map[string]uint32{}
	cols := make([]pagefile.Value, 4)
	_, schemaLost := pf.Walk(1, func(_ int64, rec []byte) {
		if pagefile.Record(rec, cols) == nil && string(cols[0].Bytes) == "table" && cols[3].IsInt {
			roots[string(cols[1].Bytes)] = uint32(cols[3].Int)
		}
	})
	if schemaLost > 0 {
		s.Problems = append(s.Problems, fmt.Sprintf("part of the schema is lost (%s): the tables it defined cannot be found", canonPages(schemaLost)))
	}
	root, ok := roots["puzzles"]
	if !ok {
		s.Problems = append(s.Problems, "the list of puzzles cannot be found: which puzzles the catalog held cannot be told")
		return s, nil
	}
	var puzzles []SalvagedPuzzle
	cols = make([]pagefile.Value, 6) // name, kind, n, storage, solutions, classes
	if _, lost := pf.Walk(root, func(_ int64, rec []byte) {
		if pagefile.Record(rec, cols) == nil {
			puzzles = append(puzzles, SalvagedPuzzle{Name: string(cols[0].Bytes), Storage: Storage(cols[3].Bytes), Solutions: cols[4].Int, Classes: cols[5].Int})
		}
	}); lost > 0 {
		s.Problems = append(s.Problems, fmt.Sprintf("part of the list of puzzles is lost (%s): puzzles it listed cannot be named", canonPages(lost)))
	}
	sort.Slice(puzzles, func(i, j int) bool {
		a, errA := canon.ParsePuzzle(puzzles[i].Name)
		b, errB := canon.ParsePuzzle(puzzles[j].Name)
		if errA != nil || errB != nil || a.Kind != b.Kind {
			return puzzles[i].Name < puzzles[j].Name
		}
		return a.N < b.N
	})
	for _, sp := range puzzles {
		suffix := tableSuffix(sp.Name)
		var tables []string
		for name := range roots {
			for _, prefix := range puzzleTablePrefixes {
				if name == prefix+suffix || name == prefix+suffix+rawSuffix {
					tables = append(tables, name)
				}
			}
		}
		sort.Strings(tables)
		lost := 0
		for _, t := range tables {
			read, l := pf.Walk(roots[t], func(int64, []byte) {})
			sp.Pages, lost = sp.Pages+read, lost+l
		}
		switch {
		case lost > 0:
			sp.Lost = fmt.Sprintf("%s of its tables cannot be read", canonPages(lost))
		case sp.Storage != StorageCounts && len(tables) == 0:
			sp.Lost = "its tables cannot be found: their definitions are lost with part of the schema"
		}
		s.Puzzles = append(s.Puzzles, sp)
	}
	return s, nil
}

// canonPages says how many pages, "1 page" or "12 pages".
func canonPages(n int) string {
	if n == 1 {
		return "1 page"
	}
	return humanize.Comma(int64(n)) + " pages"
}
