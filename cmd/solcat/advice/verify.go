package advice

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"solcat/canon"
	"solcat/catalog"
	"solcat/query/verify"
)

// VerifyRemedy is verify's verdict on its report: nil when it found
// nothing, else how many problems and what mends them (the commands that
// rebuild the damaged puzzles as they were stored, or build them into a new
// catalog when the file itself cannot be mended).
func VerifyRemedy(ctx context.Context, cat *catalog.Catalog, report verify.Report) error {
	total, damaged := report.Total(), report.Damaged()
	misnamed := slices.ContainsFunc(report.Puzzles, func(p verify.PuzzleReport) bool {
		q, err := canon.ParsePuzzle(p.Record.Name)
		return err == nil && q.String() != p.Record.Name
	})
	switch {
	case total == 0:
		return nil
	case report.Integrity != "ok" || len(report.Lookups) > 0 || misnamed:
		// SQLite's own structures, or the lookup tables no build writes
		// again, are damaged, or a record a build cannot replace (it
		// replaces the record of the puzzle's own name): writing more into
		// the file is no cure. Every puzzle is built anew elsewhere (the
		// answers kept are asked again there).
		all := make([]catalog.Record, 0, len(report.Puzzles))
		for _, p := range report.Puzzles {
			r := p.Record
			if r.Storage == verify.StorageKeptOnly {
				continue
			}
			if q, err := canon.ParsePuzzle(r.Name); err == nil {
				r.Name = q.String()
			}
			all = append(all, r)
		}
		what := "the catalog file is damaged"
		switch {
		case report.Integrity != "ok":
		case len(report.Lookups) > 0:
			what = "the lookup tables that every puzzle's SQL reads are damaged"
		default:
			what = "a record is not under its puzzle's name, which a rebuild cannot replace"
		}
		return fmt.Errorf("%d problem(s) found and %s; build its puzzles into a new catalog: %s", total, what, buildCommands(ctx, cat, "solcat --db NEW.db build", "", all))
	case len(damaged) > 0:
		// A puzzle whose only problems are answers kept is mended by
		// dropping them (the same question then counts again and keeps
		// its answer anew); the others are built again.
		var recs []catalog.Record
		wrong := map[string][]string{}
		var names []string
		for _, p := range report.Puzzles {
			if len(p.WrongAnswers) > 0 {
				wrong[p.Record.Name] = p.WrongAnswers
				names = append(names, p.Record.Name)
			}
			if !p.OK() && p.ProblemCount > p.AnswerProblems {
				recs = append(recs, p.Record)
			}
		}
		var remedies []string
		if len(recs) > 0 {
			remedies = append(remedies, "rebuild the puzzles concerned: "+buildCommands(ctx, cat, "solcat build", " --force", recs))
		}
		if len(names) > 0 {
			remedies = append(remedies, "drop the answers kept that are named above, then ask again: "+dropAnswers(cat.Path(), names, wrong))
		}
		return fmt.Errorf("%d problem(s) found; %s", total, strings.Join(remedies, "; "))
	}
	return fmt.Errorf("%d problem(s) found in the catalog's own tables; rebuild the puzzles they name with 'solcat build PUZZLE --force', or build a new catalog with 'solcat --db NEW.db build'", total)
}

// dropAnswers is the sqlite3 command that deletes the answers kept for
// the filters wrong[name] of each puzzle of names.
func dropAnswers(path string, names []string, wrong map[string][]string) string {
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	var where []string
	for _, name := range names {
		var filters []string
		for _, f := range wrong[name] {
			filters = append(filters, quote(f))
		}
		where = append(where, fmt.Sprintf("puzzle = %s AND filter IN (%s)", quote(name), strings.Join(filters, ", ")))
	}
	return fmt.Sprintf("sqlite3 %s \"DELETE FROM answers WHERE %s\"", shellWord(path), strings.Join(where, " OR "))
}

// shellWord is path as one word of a shell's command line.
func shellWord(path string) string {
	if strings.ContainsAny(path, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return "'" + strings.ReplaceAll(path, "'", `'\''`) + "'"
	}
	return path
}

// buildCommands are the commands (build, then the puzzles, then tail) that
// build the puzzles of recs again as they are stored: those known by
// their counts with --count-only, unless tables of theirs are there (a
// record that says counts may be the damage).
func buildCommands(ctx context.Context, cat *catalog.Catalog, build, tail string, recs []catalog.Record) string {
	var stored, counted []string
	for _, r := range recs {
		if has, err := cat.Health().HasTables(ctx, r.Name); r.Storage == catalog.StorageCounts && err == nil && !has {
			counted = append(counted, r.Name)
		} else {
			stored = append(stored, r.Name)
		}
	}
	var out []string
	if len(stored) > 0 {
		out = append(out, fmt.Sprintf("'%s %s%s'", build, strings.Join(stored, " "), tail))
	}
	if len(counted) > 0 {
		out = append(out, fmt.Sprintf("'%s %s --count-only%s'", build, strings.Join(counted, " "), tail))
	}
	return strings.Join(out, " and ")
}

// SalvageRemedy is verify's last line on a catalog SQLite cannot open:
// how many of its puzzles are readable, and to build them all into a new
// catalog (a file SQLite cannot open is not written to).
func SalvageRemedy(path string, report verify.Report) error {
	var names []string
	readable := 0
	for _, p := range report.Puzzles {
		names = append(names, p.Record.Name)
		if p.OK() {
			readable++
		}
	}
	build := "solcat --db NEW.db build " + strings.Join(names, " ")
	if len(names) == 0 {
		build = "solcat --db NEW.db build PUZZLE"
	}
	// Not an ErrDamaged: its remedy is to run verify.
	return fmt.Errorf("%s: the catalog file is damaged and SQLite cannot open it: of the %d puzzles it lists %d can be read page by page, %d cannot; build them into a new catalog: %s",
		path, len(names), readable, len(names)-readable, build)
}
