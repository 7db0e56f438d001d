package query

// SetSkipSpan makes deep pages skip classes n at a time, so that small
// catalogs take the path of the large ones; the returned func restores it.
func SetSkipSpan(n int64) (restore func()) {
	was := skipSpan
	skipSpan = n
	return func() { skipSpan = was }
}
