package cliparse

import (
	"io"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"solcat/canon"
	"solcat/catalog/builder"
	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/console"
	"solcat/query"
	"solcat/query/records"
)

// FormatFlags are the output flags of the commands that print records.
type FormatFlags struct {
	Format    records.Format `name:"format" placeholder:"FORMAT" predictor:"format" default:"text" enum:"${formats}" help:"Output format: text (the default), json, jsonl or csv, in any case."`
	NoHeaders bool           `name:"no-headers" help:"Leave out the header row of text tables and CSV."`
}

// FileFormat settles the format of a command that writes to a named file:
// given (--format, "" if left out) when it is given, else named, the
// format the file's name asks for ("" for none), else def; a --format that
// contradicts the name is refused.
func FileFormat(given, def, named records.Format, file string) (records.Format, error) {
	switch {
	case given == "" && named != "":
		return named, nil
	case given == "":
		return def, nil
	case named != "" && given != named:
		return "", advice.Usagef("--format %s contradicts the file name %s; drop --format or name the file %s", given, file, strings.TrimSuffix(file, filepath.Ext(file))+"."+string(given))
	}
	return given, nil
}

// ExplainFlag is --explain, for the commands that plan their question.
type ExplainFlag struct {
	Explain bool `name:"explain" help:"Print how the question would be answered (the plan: which storage, which IDs or how many classes it reads) instead of answering it."`
}

// FilterFlags are the filters shared by count, list, classes and export.
type FilterFlags struct {
	Cell         []string `name:"cell" sep:"none" placeholder:"R,C=V" help:"Cell ROW,COL holds V (1-based; queens: 1 queen, 0 empty). Repeatable."`
	Pattern      string   `name:"pattern" placeholder:"GRID" help:"Cells to match: magic \"1 . . . / . . . . / . . . . / . . . 16\" (rows split by /), queens \"2 4 . . . .\" (1-based column or . per row)."`
	UpToSymmetry bool     `name:"up-to-symmetry" help:"Match the --cell and --pattern conditions in any of the 8 orientations (selects whole classes)."`
	Prop         []string `name:"prop" placeholder:"NAME" predictor:"prop" help:"Only classes with this property (repeatable): magic pandiagonal, associative, most-perfect, self-complementary, dudeney-I to dudeney-XII (order 4); queens rot90-symmetric, rot180-only, asymmetric, toroidal, superqueen."`
	Class        *int64   `name:"class" placeholder:"ID" help:"Only members of this class."`
	Orbit        *int     `name:"orbit" placeholder:"K" help:"Only classes with K members (1, 2, 4 or 8)."`
}

// Filter reads the filter flags for puzzle p.
func (f FilterFlags) Filter(p canon.Puzzle) (query.Filter, error) {
	return query.ParseFilter(p, query.FilterText{Cells: f.Cell, Pattern: f.Pattern, UpToSymmetry: f.UpToSymmetry, Props: f.Prop, Class: f.Class, Orbit: f.Orbit})
}

// BuildFlags are how build builds.
type BuildFlags struct {
	Force     bool   `help:"Rebuild puzzles that are already complete."`
	CountOnly bool   `name:"count-only" help:"Count solutions, classes and the orbit split without storing solutions (queens up to N=23, magic:5 with counts by centre). Resumable: run the same command again after an interruption."`
	Workers   int    `help:"Search goroutines, 1 to 1024 (default: one per core). The catalog is the same for any value." default:"0"`
	Shard     string `placeholder:"I/K" help:"Build only shard I of K into this catalog: with --count-only the work units whose index mod K is I-1; stored queens, the solutions whose first-row queen is in the I-th of K column ranges. Combine the K shard catalogs with 'solcat merge'."`
	AsClasses bool   `name:"as-classes" hidden:"" help:"Store queens as their classes only whatever N, as queens:18 and 19 always are (for tests)."`
}

// Options reads the build flags; notices and progress bars go to stderr.
func (b BuildFlags) Options(stderr io.Writer) (builder.Options, error) {
	shard, err := builder.ParseShard(b.Shard)
	if err != nil {
		return builder.Options{}, advice.Usagef("--shard %w", err)
	}
	if err := CheckWorkers(b.Workers, builder.MaxWorkers); err != nil {
		return builder.Options{}, err
	}
	return builder.Options{CountOnly: b.CountOnly, Force: b.Force, Workers: b.Workers, Shard: shard, AsClasses: b.AsClasses, Notices: stderr,
		NewProgress: func(label, unit string) builder.Progress { return console.NewProgress(stderr, label, unit) }}, nil
}

// CellFlags are the cells an estimate is taken under.
type CellFlags struct {
	Cell    []string `name:"cell" sep:"none" placeholder:"R,C=V" help:"Cell ROW,COL holds V (1-based; queens: 1 queen, 0 empty). Repeatable."`
	Pattern string   `name:"pattern" placeholder:"GRID" help:"Cells to match, as in count."`
}

// Filter reads the cell flags for puzzle p.
func (f CellFlags) Filter(p canon.Puzzle) (query.Filter, error) {
	return query.ParseFilter(p, query.FilterText{Cells: f.Cell, Pattern: f.Pattern})
}

// String is the flags as they are typed, each after a space.
func (f CellFlags) String() string {
	var b strings.Builder
	for _, cell := range f.Cell {
		b.WriteString(" --cell " + cell)
	}
	if f.Pattern != "" {
		b.WriteString(" --pattern " + strconv.Quote(f.Pattern))
	}
	return b.String()
}

// LimitFlags bound a listing.
type LimitFlags struct {
	Limit  *int64 `name:"limit" placeholder:"K" help:"At most K results."`
	Offset int64  `name:"offset" placeholder:"K" help:"Skip the first K results."`
}

// Window reads --limit and --offset.
func (f LimitFlags) Window() (query.Window, error) {
	p := query.Window{Limit: -1, Offset: f.Offset}
	if f.Limit != nil {
		if *f.Limit < 0 {
			return p, advice.Usagef("--limit %d is negative; give a count of 0 or more", *f.Limit)
		}
		p.Limit = *f.Limit
	}
	if f.Offset < 0 {
		return p, advice.Usagef("--offset %d is negative; give a count of 0 or more", f.Offset)
	}
	return p, nil
}

// ProbeFlags say when an estimate stops probing, and how it draws.
type ProbeFlags struct {
	Time      *time.Duration `name:"time" placeholder:"D" help:"Stop after this long, for example 30s or 10m (default 10s when no other stop is given)."`
	Precision Fraction       `name:"precision" placeholder:"P" help:"Stop when the standard error is at most P of the estimate: 0.01 or 1%."`
	Probes    *int64         `name:"probes" placeholder:"K" help:"Stop after K probes; with the same --seed the run is repeated exactly."`
	Seed      int64          `name:"seed" default:"1" help:"Seed of the probes (0 or more). The same seed draws the same probes; use others for independent runs."`
	Workers   int            `help:"Probing goroutines, 1 to 1024 (default: one per core). The numbers are the same for any value." default:"0"`
}

// DefaultProbeTime is the run of an estimate given no stop.
const DefaultProbeTime = 10 * time.Second

// Options reads the probe flags.
func (f ProbeFlags) Options() (query.EstimateOptions, error) {
	opt := query.EstimateOptions{Workers: f.Workers, Seed: uint64(f.Seed), Precision: float64(f.Precision)}
	if f.Time != nil {
		opt.Time = *f.Time
	}
	if f.Probes != nil {
		opt.Probes = *f.Probes
	}
	switch {
	case f.Time != nil && opt.Time <= 0:
		return opt, advice.Usagef("--time %v is not a time to run for; give a duration such as 30s or 10m", opt.Time)
	case f.Probes != nil && opt.Probes <= 0:
		return opt, advice.Usagef("--probes %d is not a number of probes; give 1 or more", opt.Probes)
	case f.Seed < 0:
		return opt, advice.Usagef("--seed %d is negative; give a seed of 0 or more", f.Seed)
	}
	if err := CheckWorkers(f.Workers, 1024); err != nil {
		return opt, err
	}
	if opt.Time == 0 && opt.Precision == 0 && opt.Probes == 0 {
		opt.Time = DefaultProbeTime
	}
	if opt.Workers == 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	return opt, nil
}

// Puzzles reads puzzle arguments, each a puzzle or a range of them
// (queens:4-6), in the order given.
func Puzzles(names []string) ([]canon.Puzzle, error) {
	var out []canon.Puzzle
	for _, name := range names {
		ps, err := canon.ParsePuzzles(name)
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
	}
	return out, nil
}
