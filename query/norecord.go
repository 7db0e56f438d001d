package query

import "solcat/canon"

// NeedsNoRecord reports whether a count of f on p (filterErr: why f could
// not be read) needs nothing of p stored, so that PlanUnrecorded plans it:
// queens too large to count whole (the filter's mistake is theirs to
// say), a board property asked of queens, or a filter on queens counted
// again by the fast counter. Other questions are the catalog's to answer,
// or to refuse.
func NeedsNoRecord(p canon.Puzzle, f Filter, filterErr error) bool {
	return PastReach(p) || filterErr == nil && (BoardAsked(p, f) || FilterCounted(p, f))
}
