//go:build !amd64

package catalog

func prefetchPage(*byte) {}
