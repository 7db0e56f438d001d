package advice

import (
	"errors"
	"fmt"
	"strings"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/catalog/catfile"
	"solcat/query"
	"solcat/query/check"
	"solcat/query/keeper"
)

// filterFlagNames are the flags of the parts of a filter, statistic or
// partition that query names.
var filterFlagNames = map[string]string{"cell": "--cell", "pattern": "--pattern", "class": "--class", "orbit": "--orbit",
	"by": "--by", "partition": "--partition-by", "prop": "--prop", "up-to-symmetry": "--up-to-symmetry"}

// Remedy adds to an error from below cmd what the user can do about it
// (the packages below state facts and name no flags or commands), and
// names the flag of a mistake in a filter.
//
// files says how the command was given its catalog files: "--db", or
// "files" where they are arguments (merge).
func Remedy(err error, files string) error {
	point, another := "point --db at", "choose another --db"
	if files != "--db" {
		point, another = "give", "choose another file"
	}
	var (
		busy     *catfile.BusyError
		stopped  *builder.StoppedError
		counts   *query.CountsOnlyError
		old      *catalog.OldFormatError
		damaged  *catalog.DamagedError
		changed  *catalog.ChangedError
		other    *builder.OtherShardError
		badPart  *query.FilterError
		past     *query.PastReachError
		kept     *keeper.StoppedError
		long     *query.TooLongError
		board    *query.BoardAskError
		unread   *check.ReadError
		notation = errors.Is(err, canon.ErrNotation)
	)
	switch {
	case notation:
		return err
	case errors.As(err, &unread) && unread.Form:
		return fmt.Errorf("%w; 'solcat help check' lists the forms it reads", err)
	case errors.As(err, &past) && past.NoCells:
		return fmt.Errorf("%s is too large to count whole; give --cell or --pattern to count under them, or estimate it with 'solcat estimate %s'", past.Puzzle, past.Puzzle)
	case errors.As(err, &past) && past.Classes:
		return fmt.Errorf("past queens:%d only solutions are counted, under --cell or --pattern (or a toroidal or superqueen count); drop --classes", past.CountedUpTo)
	case errors.As(err, &past):
		return fmt.Errorf("past queens:%d only --cell and --pattern are counted; drop --up-to-symmetry, --class, --orbit and --prop", past.CountedUpTo)
	case errors.As(err, &board) && board.Class:
		return fmt.Errorf("%s is not stored: --class needs what is stored; drop it", board.Puzzle)
	case errors.As(err, &board):
		return fmt.Errorf("%s is not stored: the %s counter counts solutions under --cell and --pattern, and classes, orbit sizes and symmetry properties without them; drop one or the other", board.Puzzle, board.Prop)
	case errors.As(err, &long):
		return fmt.Errorf("%w; 'solcat estimate %s%s' estimates it in seconds", err, long.Puzzle, cellFlags(long.Filter.Cells))
	case errors.As(err, &kept) && kept.Columns > 0:
		return fmt.Errorf("%w, and the same command counts the rest", err)
	case errors.As(err, &kept) && kept.Units > 0 && kept.SaveErr == nil:
		return fmt.Errorf("%w: the same command resumes the count", err)
	case errors.As(err, &badPart):
		flag := filterFlagNames[badPart.Part]
		if flag == "" {
			flag = badPart.Part
		}
		return errors.New((&query.FilterError{Part: flag, Given: badPart.Given, Problem: badPart.Problem}).Error())
	case errors.As(err, &other):
		if other.Whole != "" {
			return fmt.Errorf("%w; build shard %s into a file of its own", err, other.Wanted)
		}
		msg := err.Error()
		if !other.Held.Done {
			resume := fmt.Sprintf("--count-only --shard %d/%d", other.Held.Shard, other.Held.Of)
			if other.HeldStored {
				resume = fmt.Sprintf("--shard %d/%d", other.Held.Shard, other.Held.Of)
			}
			msg = fmt.Sprintf("the catalog %v: it holds %s (finish that with %s)", builder.ErrOtherShard, other.Holding(), resume)
		}
		return fmt.Errorf("%s; give --force to build shard %s in its place, or use a file of its own", msg, other.Wanted)
	case errors.Is(err, builder.ErrOutputHolds):
		return fmt.Errorf("%w; merge into a new file, or give --force to replace it", err)
	case errors.As(err, &busy):
		return fmt.Errorf("%w; wait for it to finish (or stop it), then run this command again", err)
	case errors.As(err, &stopped):
		switch {
		case errors.Is(err, builder.ErrInterrupted):
			return fmt.Errorf("%w; run the same command to resume", err)
		case errors.Is(err, builder.ErrDiskFull):
			return fmt.Errorf("%w: free disk space (or raise the file size limit) and run the same command to resume", err)
		case errors.Is(err, catfile.ErrIO):
			return fmt.Errorf("%w: check the disk (dmesg), then run the same command to resume", err)
		case errors.Is(err, builder.ErrBug):
			return fmt.Errorf("%w; please report it", err)
		}
		return fmt.Errorf("%w: run the same command to resume once the cause is fixed", err)
	case errors.Is(err, builder.ErrBug):
		return fmt.Errorf("%w; please report it", err)
	case errors.As(err, &counts):
		return countsOnly(counts)
	case errors.As(err, &old):
		return fmt.Errorf("%w; store it again with 'solcat build %s --force'", err, old.Puzzle)
	case errors.Is(err, query.ErrNoDudeney):
		return fmt.Errorf("%w; rebuild it with 'solcat build magic:4 --force' (a second or less)", err)
	case errors.Is(err, catalog.ErrShardMismatch):
		return fmt.Errorf("%w; run its build again with --force", err)
	case errors.Is(err, builder.ErrDamagedSort):
		return fmt.Errorf("%w; delete that folder to start the build over", err)
	case errors.Is(err, builder.ErrBadSplit):
		return fmt.Errorf("%w; give every shard of one split once, each finished, all made by this solcat with 'solcat build PUZZLE [--count-only] --shard I/K'", err)
	case errors.Is(err, catalog.ErrShardsApart):
		return fmt.Errorf("%w; build that shard again with its --shard I/K", err)
	case errors.As(err, &changed):
		return fmt.Errorf("%w; run the command again once no other program writes the file ('solcat verify' if it was not meant to change)", err)
	case errors.Is(err, catalog.ErrNoCatalog):
		return fmt.Errorf("%w; run 'solcat build' to create it, or %s an existing catalog", err, point)
	case errors.As(err, &damaged):
		return fmt.Errorf("%w; run 'solcat verify %s', which names all that is wrong and what mends it", err, damaged.Puzzle)
	case errors.Is(err, catfile.ErrDamaged):
		return fmt.Errorf("%w; 'solcat verify' names the damaged puzzles: rebuild them with 'solcat build PUZZLE --force', or build a new catalog with 'solcat --db NEW build'", err)
	case errors.Is(err, catalog.ErrNewerSchema):
		return fmt.Errorf("%w; use a newer solcat", err)
	case errors.Is(err, catalog.ErrNotCatalog):
		return fmt.Errorf("%w; %s a catalog made by 'solcat build', or a new file", err, point)
	case errors.Is(err, catfile.ErrNoFolder):
		return fmt.Errorf("%w; create it or %s", err, another)
	case errors.Is(err, catfile.ErrReadOnlyFolder):
		return fmt.Errorf("%w; fix its permissions or %s", err, another)
	case errors.Is(err, catfile.ErrReadOnlyFile):
		return fmt.Errorf("%w; make it writable (chmod u+w) or copy it to a file of your own", err)
	case errors.Is(err, catfile.ErrHardLinked):
		return fmt.Errorf("%w, and SQLite keeps its log beside one name only; write a copy of its own (cp, then %s the copy), or remove the other names", err, point)
	case errors.Is(err, catfile.ErrDiskFull):
		return fmt.Errorf("%w; free disk space or %s", err, another)
	case errors.Is(err, catfile.ErrIO):
		return fmt.Errorf("%w; check the disk (dmesg), then run the command again, or %s", err, another)
	case errors.Is(err, catfile.ErrCheckpointStuck):
		return fmt.Errorf("%w; let that process go on (fg, or kill -CONT), or stop it", err)
	}
	return err
}

// countsOnly words a question that needs what a puzzle recorded by its
// counts does not store: where cells are counted again, and which build
// stores what it needs.
func countsOnly(counts *query.CountsOnlyError) error {
	p, reach := counts.Puzzle, builder.ReachOf(counts.Puzzle)
	msg := counts.Summary()
	if p.Kind == canon.Queens {
		msg += " (count --cell and --pattern count again)"
	}
	msg += counts.CountedText()
	switch {
	case !reach.Stored:
		return fmt.Errorf("%s; solutions are stored up to queens:%d", msg, builder.BuildLimits.QueensStored)
	case reach.AsClasses && p.Kind == canon.Magic:
		return fmt.Errorf("%s; store its classes with 'solcat build %s' (%s); meanwhile count and stats answer by the centre, cell 3,3", msg, p, buildCost[p])
	case reach.AsClasses:
		return fmt.Errorf("%s; store its classes with 'solcat build %s' (%s)", msg, p, buildCost[p])
	}
	return fmt.Errorf("%s; store them with 'solcat build %s --force'", msg, p)
}

// buildCost is what storing the largest puzzles takes, as
// docs/performance.md measures it on 2 cores.
var buildCost = map[canon.Puzzle]string{
	{Kind: canon.Magic, N: 5}:   "about 6 minutes on 2 cores, a 4.5 GB catalog",
	{Kind: canon.Queens, N: 18}: "about a minute on 2 cores, a 1.0 GB catalog",
	{Kind: canon.Queens, N: 19}: "13 to 16 minutes on 2 cores, a 7.5 GB catalog",
}

// cellFlags is a filter's cells as --cell flags, each after a space.
func cellFlags(cells []query.Cell) string {
	var b strings.Builder
	for _, c := range cells {
		fmt.Fprintf(&b, " --cell %d,%d=%d", c.Row, c.Col, c.Value)
	}
	return b.String()
}

// Explained is a plan's report with what the user can do about what it
// says: a puzzle stored in an older layout is stored anew by a build.
func Explained(r query.PlanReport) query.PlanReport {
	if r.OlderLayout {
		r.Detail = append(r.Detail, fmt.Sprintf("remedy: 'solcat build %s --force' stores it anew, in the current layout with checksums", r.Puzzle))
	}
	return r
}
