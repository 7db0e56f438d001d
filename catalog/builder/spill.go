package builder

import (
	"bufio"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"solcat/canon"
)

// A Spill sorts more 16-byte keys than a build should hold in memory (the
// 275,305,224 order-5 class forms, 4.4 GB) on their way into a table that is
// filled in key order. Keys go to bucket files by their top 10 bits; each
// bucket is small enough to sort in memory when it is read back, and the
// buckets in order give all keys in order.
//
// It is resumable like a build: Checkpoint makes everything added so far
// durable together with the caller's progress (units done, counters), and
// OpenSpill cuts the files back to the last checkpoint, so keys from a unit
// in flight when the process died are dropped and the unit is redone.
type Spill struct {
	dir     string
	state   spillState
	buckets map[int]*bucketFile
	lock    *os.File // held while the spill is open: one build at a time
}

type spillState struct {
	Layout    string          `json:"layout"`
	UnitsDone int             `json:"units_done"`
	Lengths   map[int]int64   `json:"lengths"` // bytes per bucket at the checkpoint
	Progress  json.RawMessage `json:"progress,omitempty"`
}

type bucketFile struct {
	f *os.File
	w *bufio.Writer
}

const (
	spillStateFile = "state.json"
	keyBytes       = 16
	bucketShift    = 64 - 10
)

// OpenSpill opens the spill folder dir, resuming its last checkpoint if it
// was made with the same layout and starting afresh otherwise.
func OpenSpill(dir, layout string) (*Spill, error) {
	s := &Spill{dir: dir, buckets: map[int]*bucketFile{}}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create the build's sort folder %s: %w", dir, err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		lock.Close()
		return nil, fmt.Errorf("another build is using the sort folder %s; wait for it to finish", dir)
	}
	s.lock = lock
	data, err := os.ReadFile(filepath.Join(dir, spillStateFile))
	if err == nil && json.Unmarshal(data, &s.state) == nil && s.state.Layout == layout {
		if err := s.cutBack(); err != nil {
			s.Close()
			return nil, err
		}
		return s, nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.Close()
		return nil, err
	}
	s.state = spillState{Layout: layout, Lengths: map[int]int64{}}
	if err := s.removeBuckets(); err != nil {
		s.Close()
		return nil, err
	}
	// A first checkpoint, so that others can see the build has begun.
	if err := s.Checkpoint(0, nil); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// cutBack truncates every bucket file to its length at the checkpoint and
// removes those the checkpoint does not know.
func (s *Spill) cutBack() error {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		b, ok := bucketOf(e.Name())
		if !ok {
			continue
		}
		path := filepath.Join(s.dir, e.Name())
		length, known := s.state.Lengths[b]
		if !known {
			if err := os.Remove(path); err != nil {
				return err
			}
			continue
		}
		// Longer than at the checkpoint is normal (a unit in flight); shorter
		// means data was lost, and Truncate would pad it with zeros.
		if info, err := e.Info(); err != nil || info.Size() < length {
			return fmt.Errorf("the build's sort folder %s lost part of bucket %d since its last checkpoint; delete the folder to start the build over", s.dir, b)
		}
		if err := os.Truncate(path, length); err != nil {
			return err
		}
	}
	for b := range s.state.Lengths {
		if _, err := os.Stat(s.bucketPath(b)); err != nil {
			return fmt.Errorf("the build's sort folder %s lost bucket %d since its last checkpoint; delete the folder to start the build over", s.dir, b)
		}
	}
	return nil
}

func (s *Spill) removeBuckets() error {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if _, ok := bucketOf(e.Name()); ok {
			if err := os.Remove(filepath.Join(s.dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

func bucketOf(name string) (int, bool) {
	num, ok := strings.CutPrefix(name, "bucket-")
	if !ok {
		return 0, false
	}
	b, err := strconv.Atoi(strings.TrimSuffix(num, ".keys"))
	return b, err == nil
}

func (s *Spill) bucketPath(b int) string {
	return filepath.Join(s.dir, fmt.Sprintf("bucket-%04d.keys", b))
}

// SpillUnitsDone reports how many units the last checkpoint of the spill
// folder dir covers, without opening it for writing; ok is false if there
// is no spill there.
func SpillUnitsDone(dir string) (units int, ok bool) {
	data, err := os.ReadFile(filepath.Join(dir, spillStateFile))
	var state spillState
	if err != nil || json.Unmarshal(data, &state) != nil {
		return 0, false
	}
	return state.UnitsDone, true
}

// UnitsDone is how many units the last checkpoint covers.
func (s *Spill) UnitsDone() int { return s.state.UnitsDone }

// Progress is what the caller saved with the last checkpoint.
func (s *Spill) Progress() json.RawMessage { return s.state.Progress }

// Add queues keys, in any order.
func (s *Spill) Add(keys []canon.Packed25) error {
	var rec [keyBytes]byte
	for _, k := range keys {
		b := int(k.Hi >> bucketShift)
		bf := s.buckets[b]
		if bf == nil {
			f, err := os.OpenFile(s.bucketPath(b), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
			if err != nil {
				return err
			}
			bf = &bucketFile{f: f, w: bufio.NewWriterSize(f, 1<<16)}
			s.buckets[b] = bf
		}
		binary.BigEndian.PutUint64(rec[:8], k.Hi)
		binary.BigEndian.PutUint64(rec[8:], k.Lo)
		if _, err := bf.w.Write(rec[:]); err != nil {
			return err
		}
	}
	return nil
}

// Checkpoint makes the keys added so far durable, with the number of units
// they cover and the caller's progress, in one step: a crash before it ends
// leaves the previous checkpoint in force.
func (s *Spill) Checkpoint(unitsDone int, progress any) error {
	state := spillState{Layout: s.state.Layout, UnitsDone: unitsDone, Lengths: map[int]int64{}}
	for b, length := range s.state.Lengths {
		state.Lengths[b] = length
	}
	for b, bf := range s.buckets {
		if err := bf.w.Flush(); err != nil {
			return err
		}
		if err := bf.f.Sync(); err != nil {
			return err
		}
		info, err := bf.f.Stat()
		if err != nil {
			return err
		}
		state.Lengths[b] = info.Size()
	}
	raw, err := json.Marshal(progress)
	if err != nil {
		return err
	}
	state.Progress = raw
	data, err := json.Marshal(state)
	if err != nil {
		return err
	}
	tmp := filepath.Join(s.dir, spillStateFile+".tmp")
	if err := writeSynced(tmp, data); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(s.dir, spillStateFile)); err != nil {
		return err
	}
	if d, err := os.Open(s.dir); err == nil {
		d.Sync()
		d.Close()
	}
	s.state = state
	return nil
}

func writeSynced(path string, data []byte) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Close closes the bucket files; keys added since the last checkpoint may
// be lost.
func (s *Spill) Close() error {
	var errs []error
	for b, bf := range s.buckets {
		errs = append(errs, bf.w.Flush(), bf.f.Close())
		delete(s.buckets, b)
	}
	if s.lock != nil {
		errs = append(errs, s.lock.Close()) // releases the lock
		s.lock = nil
	}
	return errors.Join(errs...)
}

// Bucket is one bucket of a finished spill: its keys come after those of
// every earlier bucket.
type Bucket struct {
	Index int
	Keys  int64
}

// Buckets lists the checkpointed buckets in key order.
func (s *Spill) Buckets() []Bucket {
	var out []Bucket
	for b, length := range s.state.Lengths {
		out = append(out, Bucket{Index: b, Keys: length / keyBytes})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Index < out[j].Index })
	return out
}

// Sorted reads one bucket back (as far as the checkpoint goes) and sorts it.
func (s *Spill) Sorted(b Bucket) ([]canon.Packed25, error) {
	f, err := os.Open(s.bucketPath(b.Index))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data := make([]byte, b.Keys*keyBytes)
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("reading %s: %w", s.bucketPath(b.Index), err)
	}
	keys := make([]canon.Packed25, b.Keys)
	for i := range keys {
		keys[i] = canon.Packed25{Hi: binary.BigEndian.Uint64(data[i*keyBytes:]), Lo: binary.BigEndian.Uint64(data[i*keyBytes+8:])}
	}
	slices.SortFunc(keys, func(x, y canon.Packed25) int {
		return cmp.Or(cmp.Compare(x.Hi, y.Hi), cmp.Compare(x.Lo, y.Lo))
	})
	return keys, nil
}

// Remove deletes the spill folder.
func (s *Spill) Remove() error {
	s.Close()
	return os.RemoveAll(s.dir)
}
