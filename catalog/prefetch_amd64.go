package catalog

// prefetchPage asks the CPU to start loading a 4 KiB page into its cache,
// a line in each quarter (its prefetcher streams the rest), without
// waiting for it.
//
//go:noescape
func prefetchPage(p *byte)
