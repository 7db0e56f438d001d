package advice

import (
	"errors"

	"solcat/cmd/solcat/outfile"
)

// OutputError explains why an --output cannot be written.
func OutputError(name string, err error) error {
	switch {
	case errors.Is(err, outfile.ErrProtected):
		return Usagef("--output %s is the catalog or one of its files; writing it would destroy the catalog: choose another file", name)
	case errors.Is(err, outfile.ErrIsFolder):
		return Usagef("--output %s is a folder; name a file in it", name)
	case errors.Is(err, outfile.ErrExists):
		return Usagef("--output %s already exists; a partitioned export writes a new folder: remove it or choose another name", name)
	case errors.Is(err, outfile.ErrNoFolder):
		return Usagef("cannot write %s: its folder does not exist; create it or choose another --output", name)
	}
	return err
}
