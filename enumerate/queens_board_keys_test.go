package enumerate

import (
	"bytes"
	"context"
	"math"
	"testing"

	"solcat/canon"
)

// TestBoardKeys: a board count's key reads back as the property, orbit
// size and question it was made of, and is no constraint's key.
func TestBoardKeys(t *testing.T) {
	q := NewQueensConstraint(9).Question()
	for _, tc := range []struct {
		prop     canon.Property
		orbit    int
		question []byte
	}{
		{canon.Toroidal, 0, q},
		{canon.Superqueen, 4, q},
		{canon.Superqueen, 0, append([]byte("U"), q...)},
	} {
		key := BoardKey(tc.prop, tc.orbit, tc.question)
		prop, orbit, question, ok := ParseBoardKey(key)
		if !ok || prop != tc.prop || orbit != tc.orbit || !bytes.Equal(question, tc.question) {
			t.Errorf("%q read back as %v %d %q %v", key, prop, orbit, question, ok)
		}
		if _, ok := ConstraintOfKey(key); ok {
			t.Errorf("%q reads as a constraint's key", key)
		}
	}
	if _, _, _, ok := ParseBoardKey(q); ok {
		t.Errorf("a constraint's key %q reads as a board count's", q)
	}
}

// TestBoardSearchNodes: Knuth's estimate of the board counters' nodes is
// within 25% of the nodes the count visits, with and without a
// constraint.
func TestBoardSearchNodes(t *testing.T) {
	for _, tc := range []struct {
		prop canon.Property
		n    int
		cell [2]int // a queen there, or none at {-1, -1}
	}{
		{canon.Toroidal, 17, [2]int{-1, -1}},
		{canon.Superqueen, 15, [2]int{-1, -1}},
		{canon.Superqueen, 15, [2]int{1, 3}},
		{canon.Toroidal, 13, [2]int{2, 5}},
	} {
		c := NewQueensConstraint(tc.n)
		if tc.cell[0] >= 0 {
			c.Queen(tc.cell[0], tc.cell[1])
		}
		q, err := NewBoardCounter(tc.prop, c)
		if err != nil {
			t.Fatal(err)
		}
		todo := make([]int, len(q.Units()))
		for i := range todo {
			todo[i] = i
		}
		var nodes int64
		err = q.Count(context.Background(), todo, 2, func(_ int, cc ClassCounts) error {
			nodes += cc.Nodes
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		est := q.SearchNodes(64, 1)
		if math.Abs(est-float64(nodes)) > 0.25*float64(nodes) {
			t.Errorf("%v queens:%d %v: estimated %.0f nodes, counted %d", tc.prop, tc.n, tc.cell, est, nodes)
		}
		t.Logf("%v queens:%d %v: estimated %.0f nodes, counted %d", tc.prop, tc.n, tc.cell, est, nodes)
	}
	if r := BoardSearchRate(canon.Superqueen); r < 1e6 {
		t.Errorf("superqueen counter: %.0f nodes a second", r)
	}
}
