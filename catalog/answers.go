package catalog

import (
	"context"
	"fmt"
	"time"
)

// An Answer is a question worked out after a build and kept: the number of
// solutions of a filter on a puzzle recorded by its counts only (see
// migration 00015).
type Answer struct {
	Puzzle     string  `db:"puzzle"`
	Question   []byte  `db:"question"` // the filter as the counter takes it: one key for every spelling
	Filter     string  `db:"filter"`   // as first asked
	Solutions  int64   `db:"solutions"`
	Method     string  `db:"method"`
	Seconds    float64 `db:"seconds"`
	Workers    int     `db:"workers"`
	RecordedAt string  `db:"recorded_at"`
	Seal       string  `db:"seal"`
	Unsealed   bool    `db:"-"` // does not match its seal (Answers; LookUpAnswer refuses it)
}

// keep keeps an answer, replacing the one to the same question.
func (a Answer) keep(ctx context.Context, c *Catalog) error {
	if a.RecordedAt == "" {
		a.RecordedAt = time.Now().UTC().Format(time.RFC3339)
	}
	key, err := puzzleKeyOf(ctx, c.db, a.Puzzle)
	if err != nil {
		return err
	}
	a.Seal = sealOfAnswer(key, a)
	defer c.checkpoint.Committed()
	_, err = c.db.NamedExecContext(ctx, `INSERT OR REPLACE INTO answers (puzzle, question, filter, solutions, method, seconds, workers, recorded_at, seal)
		VALUES (:puzzle, :question, :filter, :solutions, :method, :seconds, :workers, :recorded_at, :seal)`, a)
	return err
}

// LookUpAnswer finds the answer kept for a question, if any. A catalog
// of an older solcat has none.
func (c *Catalog) LookUpAnswer(ctx context.Context, puzzle string, question []byte) (Answer, bool, error) {
	var out []Answer
	if ok, err := hasTable(ctx, c.db, "answers"); err != nil || !ok {
		return Answer{}, false, err
	}
	if err := c.db.SelectContext(ctx, &out, "SELECT * FROM answers WHERE puzzle = ? AND question = ?", puzzle, question); err != nil {
		return Answer{}, false, err
	}
	if len(out) == 0 {
		return Answer{}, false, nil
	}
	if err := c.checkAnswers(ctx, out); err != nil {
		return Answer{}, false, err
	}
	if out[0].Unsealed {
		return Answer{}, false, &DamagedError{Puzzle: puzzle, Path: c.path, Problem: fmt.Sprintf("the answer kept for %s %s", out[0].Filter, unsealed)}
	}
	return out[0], true, nil
}

// Answers lists the answers kept for a puzzle ("" for every puzzle), by
// puzzle and filter.
func (k *Kept) Answers(ctx context.Context, puzzle string) ([]Answer, error) {
	c := k.c
	var out []Answer
	if ok, err := hasTable(ctx, c.db, "answers"); err != nil || !ok {
		return nil, err
	}
	if err := c.db.SelectContext(ctx, &out, "SELECT * FROM answers WHERE ? = '' OR puzzle = ? ORDER BY puzzle, filter", puzzle, puzzle); err != nil {
		return nil, err
	}
	return out, c.checkAnswers(ctx, out)
}

// checkAnswers marks the answers that do not match their seals.
func (c *Catalog) checkAnswers(ctx context.Context, answers []Answer) error {
	if !c.sealed(ctx) {
		return nil
	}
	for i, a := range answers {
		key, err := puzzleKeyOf(ctx, c.db, a.Puzzle)
		if err != nil {
			return err
		}
		answers[i].Unsealed = a.Seal != sealOfAnswer(key, a)
	}
	return nil
}

// SavedAnswerUnits is the units of a constrained count of question saved by an
// earlier run that stopped, by unit, if that run split the count into the
// same number of units.
func (k *Kept) SavedAnswerUnits(ctx context.Context, puzzle string, question []byte, units int) (map[int]int64, error) {
	c := k.c
	out := map[int]int64{}
	if ok, err := hasTable(ctx, c.db, "answer_units"); err != nil || !ok {
		return out, err
	}
	var rows []struct {
		Unit      int   `db:"unit"`
		Solutions int64 `db:"solutions"`
	}
	err := c.db.SelectContext(ctx, &rows, "SELECT unit, solutions FROM answer_units WHERE puzzle = ? AND question = ? AND units = ?", puzzle, question, units)
	for _, r := range rows {
		out[r.Unit] = r.Solutions
	}
	return out, err
}

// SaveAnswerUnits saves finished units of a constrained count, in one
// transaction, replacing what an earlier split of it saved.
func (k *Kept) SaveAnswerUnits(ctx context.Context, puzzle string, question []byte, units int, done map[int]int64) error {
	c := k.c
	tx, err := c.db.BeginTxx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, "DELETE FROM answer_units WHERE puzzle = ? AND question = ? AND units <> ?", puzzle, question, units); err != nil {
		return err
	}
	for u, s := range done {
		if _, err := tx.ExecContext(ctx, "INSERT OR REPLACE INTO answer_units (puzzle, question, units, unit, solutions) VALUES (?, ?, ?, ?, ?)", puzzle, question, units, u, s); err != nil {
			return err
		}
	}
	defer c.checkpoint.Committed()
	return tx.Commit()
}

// DropAnswerUnits removes the saved units of a question, once its answer is kept.
func (k *Kept) DropAnswerUnits(ctx context.Context, puzzle string, question []byte) error {
	c := k.c
	defer c.checkpoint.Committed()
	_, err := c.db.ExecContext(ctx, "DELETE FROM answer_units WHERE puzzle = ? AND question = ?", puzzle, question)
	return err
}

// SavedUnits is the units a constrained or board count saved for one
// question, by unit: the rows a merge gathers from the shards of a split
// count.
type SavedUnits struct {
	Puzzle   string
	Question []byte
	Units    int // how many units the count has in all
	Saved    map[int]int64
}

// AllSavedUnits lists every count's saved units, by puzzle and question.
func (k *Kept) AllSavedUnits(ctx context.Context) ([]SavedUnits, error) {
	c := k.c
	if ok, err := hasTable(ctx, c.db, "answer_units"); err != nil || !ok {
		return nil, err
	}
	var rows []struct {
		Puzzle    string `db:"puzzle"`
		Question  []byte `db:"question"`
		Units     int    `db:"units"`
		Unit      int    `db:"unit"`
		Solutions int64  `db:"solutions"`
	}
	if err := c.db.SelectContext(ctx, &rows, "SELECT puzzle, question, units, unit, solutions FROM answer_units ORDER BY puzzle, question, units, unit"); err != nil {
		return nil, err
	}
	var out []SavedUnits
	for _, r := range rows {
		if n := len(out); n == 0 || out[n-1].Puzzle != r.Puzzle || string(out[n-1].Question) != string(r.Question) || out[n-1].Units != r.Units {
			out = append(out, SavedUnits{Puzzle: r.Puzzle, Question: r.Question, Units: r.Units, Saved: map[int]int64{}})
		}
		out[len(out)-1].Saved[r.Unit] = r.Solutions
	}
	return out, nil
}
