// Package advice puts into words what solcat tells its users to do: the
// command that builds or resumes a puzzle, how far an unfinished build is,
// why a puzzle is not in a catalog, and the remedy for each error the
// packages below the CLI return (they state facts and name no flag or
// command). The CLI and the web server both speak through it.
package advice

import (
	"context"
	"fmt"

	"github.com/dustin/go-humanize"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/enumerate"
	"solcat/query/records"
)

// BuildCommand is the command that builds p: stored if it can be (and
// counts are not asked for), else its counts.
func BuildCommand(p canon.Puzzle, countOnly bool) string {
	if countOnly || enumerate.Supported(p, false) != nil {
		return fmt.Sprintf("solcat build %s --count-only", p)
	}
	return fmt.Sprintf("solcat build %s", p)
}

// ResumeCommand is the command that resumes an unfinished build: the one
// that began it, with its shard.
func ResumeCommand(u builder.Unfinished) string {
	command := BuildCommand(u.Puzzle, u.CountOnly)
	if u.Shard.Of > 0 {
		command += " --shard " + u.Shard.String()
	}
	return command
}

// Unfinished is an unfinished build as users are told of it: a line that
// says how far it is and what to do, and its object in JSON (info, the
// web's catalog page).
type Unfinished struct {
	Puzzle canon.Puzzle
	Line   string
	JSON   records.Object
}

// Describe puts an unfinished build into words.
func Describe(u builder.Unfinished) Unfinished {
	return Unfinished{Puzzle: u.Puzzle, Line: line(u), JSON: object(u)}
}

func line(u builder.Unfinished) string {
	resume := ResumeCommand(u)
	if u.Foreign && !u.Running {
		return fmt.Sprintf("%s is unfinished: an earlier solcat began counting it, and this one cannot use its work; '%s' counts it again", u.Puzzle, resume)
	}
	state := fmt.Sprintf("%d%% saved", u.Percent)
	switch {
	case u.Stored != nil && u.Total > 0:
		state = fmt.Sprintf("%d%% saved (%s of %s %s)", u.Percent, humanize.Comma(u.Done), humanize.Comma(u.Total), u.What)
	case u.Search:
		state = fmt.Sprintf("its class search is %d%% done (%s of %s units), then the classes are written", u.Percent, humanize.Comma(u.Done), humanize.Comma(u.Total))
	case u.CountOnly:
		state = fmt.Sprintf("%d%% counted (%s of %s work units)", u.Percent, humanize.Comma(u.Done), humanize.Comma(u.Total))
	case u.Running && u.Total == 0:
		state = "just begun"
	}
	if u.Running {
		return fmt.Sprintf("%s is being built: %s, by %s; wait for the build to finish", u.Puzzle, state, u.Writer)
	}
	if u.Search {
		return fmt.Sprintf("%s is unfinished: %s; '%s' resumes it", u.Puzzle, state, resume)
	}
	return fmt.Sprintf("%s is unfinished: its build stopped with %s; '%s' resumes it", u.Puzzle, state, resume)
}

func object(u builder.Unfinished) records.Object {
	name := u.Puzzle.String()
	switch {
	case u.Stored != nil:
		b := u.Stored
		return records.Obj("puzzle", name, "storage", "building", "running", u.Running, "percent", u.Percent, "classes_done", b.ClassesDone, "solutions_done", b.SolutionsDone, "started_at", b.StartedAt, "updated_at", b.UpdatedAt)
	case u.CountOnly:
		return records.Obj("puzzle", name, "storage", "counting", "running", u.Running, "percent", u.Percent, "units_done", u.Done, "units", u.Total)
	}
	return records.Obj("puzzle", name, "storage", "building", "running", u.Running, "percent", u.Percent)
}

// Builds tells of the unfinished builds of one catalog, for the web server.
type Builds struct {
	Cat  *catalog.Catalog
	Path string
}

// UnderWay lists the catalog's unfinished builds.
func (b Builds) UnderWay(ctx context.Context) ([]Unfinished, error) {
	us, err := builder.UnderWay(ctx, b.Cat, b.Path)
	out := make([]Unfinished, len(us))
	for i, u := range us {
		out[i] = Describe(u)
	}
	return out, err
}

// Of returns the unfinished build of p, if there is one.
func (b Builds) Of(ctx context.Context, p canon.Puzzle) (Unfinished, bool, error) {
	u, ok, err := builder.Status(ctx, b.Cat, b.Path, p)
	if err != nil || !ok {
		return Unfinished{}, false, err
	}
	return Describe(u), true, nil
}

// ShardProgress says how far an unfinished count shard is and how to
// resume it (a stored shard is marked only once it is finished).
func ShardProgress(ctx context.Context, cat *catalog.Catalog, s catalog.Shard) (string, error) {
	units, err := cat.Work().DoneUnits(ctx, s.Puzzle)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d%% counted (%s of %s work units); 'solcat build %s --count-only --shard %d/%d' resumes it",
		100*len(units)/max(s.Units, 1), humanize.Comma(int64(len(units))), humanize.Comma(int64(s.Units)), s.Puzzle, s.Shard, s.Of), nil
}

// NotBuilt explains why p has no record in the catalog at path: a build of
// it is under way (from its first instant: the build holds the catalog's
// lock), or was stopped, or the catalog holds a shard of it, or it was
// never built, and then how to build it, if it can be. An error that wraps
// builder.ErrUnsupported is a puzzle no build makes.
func NotBuilt(ctx context.Context, cat *catalog.Catalog, path string, p canon.Puzzle) error {
	if s, ok, err := cat.Work().ShardOf(ctx, p.String()); err != nil || ok {
		if err != nil {
			return err
		}
		if !s.Done {
			state, err := ShardProgress(ctx, cat, s)
			if err != nil {
				return err
			}
			return fmt.Errorf("%s holds shard %d/%d of %s, unfinished: %s", path, s.Shard, s.Of, p, state)
		}
		return fmt.Errorf("%s holds shard %d/%d of %s, not all of it; combine the %d shards with 'solcat merge OUT SHARD...' and query OUT", path, s.Shard, s.Of, p, s.Of)
	}
	u, unfinished, err := builder.Status(ctx, cat, path, p)
	if err != nil {
		return err
	}
	if unfinished {
		return fmt.Errorf("%s", line(u))
	}
	if enumerate.Supported(p, false) != nil && enumerate.Supported(p, true) != nil {
		return fmt.Errorf("%s is not in the catalog and %w: solcat stores magic squares up to order %d and queens up to N=%d, and counts queens up to N=%d; 'solcat estimate %s' estimates its count",
			p, errCannotBuild, enumerate.MaxCountedMagic, enumerate.MaxClassStoredQueens, enumerate.MaxCountedQueens, p)
	}
	if p.Kind == canon.Queens && p.N > enumerate.MaxStoredQueens && enumerate.Supported(p, false) == nil {
		return fmt.Errorf("%s is not in the catalog %s; add its classes with '%s', or its counts alone with '%s'", p, path, BuildCommand(p, false), BuildCommand(p, true))
	}
	return fmt.Errorf("%s is not in the catalog %s; add it with '%s'", p, path, BuildCommand(p, false))
}

// errCannotBuild is builder.ErrUnsupported as NotBuilt words it.
var errCannotBuild error = cannotBuild{}

type cannotBuild struct{}

func (cannotBuild) Error() string { return "cannot be built" }
func (cannotBuild) Unwrap() error { return builder.ErrUnsupported }
