// Package completion tells the shells' tab completion what the values of
// solcat's flags and arguments can be: the puzzles of the catalog named on
// the command line, properties, formats, statistics and files.
package completion

import (
	"context"
	"fmt"
	"os"
	"strings"

	kongcompletion "github.com/jotaen/kong-completion"
	"github.com/posener/complete"

	"solcat/canon"
	"solcat/catalog"
	"solcat/enumerate"
)

// Predictors complete the values of the flags and arguments
// that name puzzles, properties, formats and statistics.
func Predictors() []kongcompletion.Option {
	return []kongcompletion.Option{
		kongcompletion.WithPredictor("puzzle", complete.PredictFunc(catalogPuzzles)),
		kongcompletion.WithPredictor("buildable", complete.PredictSet(buildable()...)),
		kongcompletion.WithPredictor("prop", complete.PredictSet(append(canon.PropertyNames(canon.Magic), canon.PropertyNames(canon.Queens)...)...)),
		kongcompletion.WithPredictor("format", complete.PredictSet("text", "json", "jsonl", "csv")),
		kongcompletion.WithPredictor("exportformat", complete.PredictSet("csv", "json", "jsonl", "parquet")),
		kongcompletion.WithPredictor("showformat", complete.PredictSet("text", "json", "jsonl", "csv", "svg")),
		kongcompletion.WithPredictor("by", complete.PredictSet("cell:", "row:", "orbit", "prop:", "group")),
		kongcompletion.WithPredictor("partition", complete.PredictSet("orbit", "symmetry", "cell:", "row:")),
		kongcompletion.WithPredictor("file", complete.PredictFiles("*")),
	}
}

// buildable names every puzzle solcat builds or counts.
func buildable() []string {
	var out []string
	for n := 1; n <= enumerate.MaxCountedMagic; n++ {
		out = append(out, fmt.Sprintf("magic:%d", n))
	}
	for n := 1; n <= enumerate.MaxCountedQueens; n++ {
		out = append(out, fmt.Sprintf("queens:%d", n))
	}
	return out
}

// catalogPuzzles are the puzzles in the catalog the command line names
// (--db, or SOLCAT_DB, or ./solcat.db), or every buildable one.
func catalogPuzzles(a complete.Args) []string {
	db := os.Getenv("SOLCAT_DB")
	if db == "" {
		db = "./solcat.db"
	}
	for i, arg := range a.All {
		if v, ok := strings.CutPrefix(arg, "--db="); ok {
			db = v
		} else if arg == "--db" && i+1 < len(a.All) {
			db = a.All[i+1]
		}
	}
	cat, err := catalog.Open(context.Background(), db)
	if err != nil {
		return buildable()
	}
	defer cat.Close()
	recs, err := cat.Puzzles(context.Background())
	if err != nil || len(recs) == 0 {
		return buildable()
	}
	var names []string
	for _, r := range recs {
		names = append(names, r.Name)
	}
	return names
}
