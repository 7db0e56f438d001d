package catfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A catalog is more than its file: SQLite keeps the write-ahead log and its
// index beside it (CATALOG-wal, CATALOG-shm), a build holds CATALOG.lock,
// and a stored magic:5 build sorts in the folder CATALOG.sort. The -wal file
// holds committed data until it is copied into the catalog: deleting it
// loses that data and can leave the catalog unreadable.

// companions returns the files that belong to the catalog at path besides
// the catalog file itself: the write-ahead log, its index, the build lock
// and the sort folder.
func companions(path string) []string {
	file := RealFile(path)
	return []string{file + "-wal", file + "-shm", lockPath(file), file + ".sort"}
}

// RealFile is the file a catalog path names, its symbolic links followed
// (the last one may point at a file not made yet): the catalog's lock file,
// log and sort folder lie beside it, whatever name it was given by.
func RealFile(path string) string {
	if file, ok := resolve(path); ok {
		return file
	}
	return path
}

// SortFolder is where a stored magic:5 build into the catalog at path
// sorts its classes.
func SortFolder(path string) string { return RealFile(path) + ".sort" }

// IsOwnFile reports whether path names the catalog at catalogPath or one of
// its companion files, as the same file after following links (a symbolic
// or hard link to the catalog is the catalog), or, for files that do not
// exist yet, as the same resolved path.
func IsOwnFile(catalogPath, path string) bool {
	for _, own := range append([]string{catalogPath}, companions(catalogPath)...) {
		if sameFile(own, path) {
			return true
		}
	}
	return false
}

// sameFile reports whether a and b name the same file: the same inode if
// both exist, else the same path once symbolic links are followed.
func sameFile(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(ia, ib)
	}
	ra, okA := resolve(a)
	rb, okB := resolve(b)
	return okA && okB && ra == rb
}

// resolve follows the symbolic links of path, including a last one that
// points at a file that does not exist yet, and returns the absolute path
// it comes to; ok is false if its folder cannot be resolved.
func resolve(path string) (string, bool) {
	if _, err := os.Lstat(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	final, err := FinalPath(path)
	if err != nil {
		return "", false
	}
	abs, err := filepath.Abs(final)
	return abs, err == nil
}

// FinalPath is where a file at path really is: the end of its chain of
// symbolic links (the last of which may point at a file not made yet), in
// its folder with that folder's links resolved. The catalog's files are
// named after it, and export destinations replace it rather than a link.
func FinalPath(path string) (string, error) {
	for range 40 {
		info, err := os.Lstat(path)
		if err == nil && info.Mode()&os.ModeSymlink != 0 {
			link, err := os.Readlink(path)
			if err != nil {
				return "", err
			}
			if !filepath.IsAbs(link) {
				link = filepath.Join(ParentOf(path), link)
			}
			path = link
			continue
		}
		dir, err := filepath.EvalSymlinks(ParentOf(path))
		if err != nil {
			return "", err
		}
		return filepath.Join(dir, filepath.Base(path)), nil
	}
	return "", errors.New("too many levels of symbolic links")
}

// ParentOf is the folder path sits in, as written: "a/b/../x" sits in
// "a/b/..", which exists only if a/b does (filepath.Dir would say "a").
func ParentOf(path string) string {
	i := strings.LastIndexByte(path, '/')
	switch {
	case i < 0:
		return "."
	case i == 0:
		return "/"
	}
	return path[:i]
}

// FileURI is the SQLite URI of the file at path followed by params ("a=b"
// each). The path is made absolute and every byte outside a small safe set
// is percent-encoded, so any name the operating system accepts ('#', '?',
// '%', '&', spaces, non-ASCII) names that file and nothing else: SQLite
// would read a raw '?' as the start of the parameters, '#' as a fragment
// and '%' as an escape.
func FileURI(path string, params ...string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("file:")
	for i := 0; i < len(abs); i++ {
		c := abs[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("/._-~", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	if len(params) > 0 {
		b.WriteString("?" + strings.Join(params, "&"))
	}
	return b.String(), nil
}
