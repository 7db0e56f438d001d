// Package catfile holds the mechanics of a catalog's files on disk, apart
// from what they hold: the build lock and who holds it, the byte-range
// locks that readers and the writer share, the copying of the writer's log
// into the file, the files that lie beside a catalog and where it really
// is, and the disk's faults told by their codes. It knows no table.
package catfile

import "errors"

// ErrHardLinked means the catalog file has more than one name: SQLite keeps
// its log beside the name it was opened by, so a writer through one name
// and a reader or writer through another would not share it.
var ErrHardLinked = errors.New("the file has more than one name (hard links)")

// ErrReadOnlyFile means the catalog file itself cannot be written.
var ErrReadOnlyFile = errors.New("the file is read-only")

// ErrNoFolder means the folder a new catalog would go in does not exist.
var ErrNoFolder = errors.New("its folder does not exist or cannot be reached")

// ErrReadOnlyFolder means the catalog's folder cannot be written: SQLite
// keeps its write-ahead log there.
var ErrReadOnlyFolder = errors.New("its folder is not writable")

// ErrDamaged means SQLite found the catalog file damaged.
var ErrDamaged = errors.New("the catalog file is damaged")
