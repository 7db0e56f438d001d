package catalog

import (
	"context"
	"encoding/binary"
	"fmt"

	"solcat/catalog/checksum"
	"solcat/catalog/pagefile"
)

// The class rows of a puzzle stored solution by solution carry checksums
// in a table of their own (class_checks_<p>), a row per run of up to
// classChecksPerRow classes: every read of the class rows checks each row
// it reads, and that none is missing, repeated or added, so that a class
// row changed or deleted behind solcat's back (an orbit, a form) is found
// before it counts.

// classChecksPerRow is how many classes one row of class checks covers.
const classChecksPerRow = 1000

// classChecksTable names a puzzle's class checks: "queens:8" has
// class_checks_queens_8.
func classChecksTable(puzzle string) string { return "class_checks_" + tableSuffix(puzzle) }

// classCheck is the checksum of one class row: its canonical form, orbit
// and properties, mixed with its ID.
func classCheck(id int64, canonical []byte, orbit int64, props int64, scratch []byte) (uint32, []byte) {
	scratch = append(append(scratch[:0], canonical...), byte(orbit))
	scratch = binary.LittleEndian.AppendUint32(scratch, uint32(props))
	return uint32(checksum.Sum64(scratch) ^ checkSeed(id, 62)), scratch
}

// readClassChecks reads the class checks of the classes lo to hi (lo >= 1),
// each row checked against its checksum: want[id-lo] is class id's check.
// A class of the range the checks do not cover is damage.
func (s *Content) readClassChecks(ctx context.Context, r *fileReader, buf *pageBuffer, t *tableRef, lo, hi int64, want []uint32) error {
	cols := make([]pagefile.Value, 3)
	next := int64(0) // the ID after the last row read
	err := r.rows(ctx, buf, t, lo-classChecksPerRow, hi, nil, cols, func(first int64) error {
		checks := cols[1].Bytes
		sum, ok := intColumn(cols[2])
		if !ok || uint32(sum) != rowCheck(first, checks) || sum < 0 || sum > 1<<32-1 || len(checks)%4 != 0 || len(checks) == 0 {
			return s.damaged(fmt.Sprintf("the class checks of class %d are damaged: their checksum does not match", first))
		}
		if next != 0 && first != next {
			return s.damaged(fmt.Sprintf("the class checks skip or repeat classes %d to %d", min(first, next), max(first, next)-1))
		}
		next = first + int64(len(checks)/4)
		for i := range len(checks) / 4 {
			if id := first + int64(i); id >= lo && id <= hi {
				want[id-lo] = binary.LittleEndian.Uint32(checks[4*i:])
			}
		}
		return nil
	})
	if err == nil && (next == 0 || next <= hi) {
		err = s.damaged(fmt.Sprintf("the class checks do not cover classes %d to %d", lo, hi))
	}
	return err
}
