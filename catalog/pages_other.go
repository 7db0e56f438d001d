//go:build !unix

package catalog

// mapPages is not available here: scans read through SQL.
func mapPages(string) (*pageFile, error) { return nil, errNotPlain }
