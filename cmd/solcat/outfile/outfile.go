// Package outfile opens the destination of an export safely. "-" is
// standard output; devices, FIFOs and other files that are not regular are
// written directly; a regular file (or a new one) is written through a
// temporary file in the same folder, synced and renamed into place, so it
// appears only when complete and a crash leaves the old file or the new
// one, never a mix. Symbolic links are followed, so the link stays and its
// target is replaced. It never writes a file the caller protects (the open
// catalog and its companions), decided by file identity, not by path text.
//
// Temporary files and folders are named .NAME.solcat-RANDOM.tmp and locked
// while they are written; the next export into the same folder removes
// those whose writer is gone (the lock is free once its process has
// ended, however it ended).
package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"

	"golang.org/x/term"

	"solcat/catalog/catfile"
)

// ErrProtected means the destination is a file the caller protects.
var ErrProtected = errors.New("the destination is one of the catalog's own files")

// ErrIsFolder means a file was asked for and the destination is a folder.
var ErrIsFolder = errors.New("the destination is a folder")

// ErrExists means a new folder was asked for and the destination exists.
var ErrExists = errors.New("the destination exists")

// ErrNoFolder means the folder the destination would go in does not exist.
var ErrNoFolder = errors.New("its folder does not exist")

// A File is an export's destination, open for writing. Write to it, then
// Commit; Abort (safe after Commit) throws away what was written to a
// temporary file.
type File struct {
	name   string    // as the user gave it
	w      io.Writer // what Write writes to
	f      *os.File  // the same, when it is a file solcat opened
	final  string    // a regular file: where the temporary file goes
	tmp    string    // a regular file: the temporary file
	direct bool      // standard output, a device, a FIFO
	done   bool
}

// Create opens path for writing. stdout is the command's standard output:
// a path that names the same file is written through it. protected says
// whether a path names a file that must not be written (it is asked of the
// resolved destination).
func Create(path string, stdout io.Writer, protected func(string) bool) (*File, error) {
	if err := checkFolder(path); err != nil {
		return nil, err
	}
	if protected(path) {
		return nil, fmt.Errorf("%s: %w", path, ErrProtected)
	}
	info, err := os.Stat(path) // follows links
	switch {
	case err == nil && info.IsDir():
		return nil, fmt.Errorf("%s: %w", path, ErrIsFolder)
	case err == nil && sameFile(info, stdout):
		return Stdout(stdout), nil
	case err == nil && !info.Mode().IsRegular():
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, cannot(path, err)
		}
		return &File{name: path, w: f, f: f, direct: true}, nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return nil, cannot(path, err)
	}
	final, err := catfile.FinalPath(path)
	if err != nil {
		return nil, cannot(path, err)
	}
	dir := filepath.Dir(final)
	RemoveStale(dir)
	f, tmp, err := createTemp(dir, filepath.Base(final), false)
	if err != nil {
		return nil, cannot(path, err)
	}
	return &File{name: path, w: f, f: f, final: final, tmp: tmp}, nil
}

// Stdout is standard output (w) as a destination.
func Stdout(w io.Writer) *File {
	return &File{name: "standard output", w: w, direct: true}
}

// Write writes to the destination.
func (o *File) Write(p []byte) (int, error) {
	n, err := o.w.Write(p)
	if err != nil {
		err = cannot(o.name, err)
	}
	return n, err
}

// IsTerminal reports whether the destination is a terminal.
func (o *File) IsTerminal() bool {
	f, ok := o.w.(*os.File)
	return ok && o.direct && term.IsTerminal(int(f.Fd()))
}

// Direct reports whether the destination is written directly (standard
// output, a device, a FIFO), so that what was written stays written.
func (o *File) Direct() bool { return o.direct }

// Commit puts what was written in place.
func (o *File) Commit() error {
	if o.done {
		return nil
	}
	o.done = true
	if o.direct {
		if o.f == nil {
			return nil
		}
		return cannot(o.name, o.f.Close())
	}
	defer os.Remove(o.tmp) // if anything below fails
	// Synced before the rename, so the name never points at unwritten
	// data; the folder synced after, so the rename itself survives a crash.
	if err := o.f.Sync(); err != nil {
		o.f.Close()
		return cannot(o.name, err)
	}
	if err := o.f.Close(); err != nil {
		return cannot(o.name, err)
	}
	if err := os.Chmod(o.tmp, 0o644); err != nil { // temporary files are private
		return cannot(o.name, err)
	}
	if err := os.Rename(o.tmp, o.final); err != nil {
		return cannot(o.name, err)
	}
	return cannot(o.name, syncFolder(filepath.Dir(o.final)))
}

// Abort throws away a temporary file; what went to a direct destination
// stays.
func (o *File) Abort() {
	if o.done {
		return
	}
	o.done = true
	if o.direct {
		if o.f != nil {
			o.f.Close()
		}
		return
	}
	o.f.Close()
	os.Remove(o.tmp)
}

// A Folder is a new folder being written under a temporary name; Commit
// renames it into place.
type Folder struct {
	name  string
	final string
	tmp   string
	lock  *os.File
	done  bool
}

// CreateFolder starts writing a new folder at path, which must not exist.
func CreateFolder(path string, protected func(string) bool) (*Folder, error) {
	if trimmed := strings.TrimRight(path, "/"); trimmed != "" {
		path = trimmed // dir/ names the folder dir
	}
	if err := checkFolder(path); err != nil {
		return nil, err
	}
	if protected(path) {
		return nil, fmt.Errorf("%s: %w", path, ErrProtected)
	}
	if _, err := os.Lstat(path); err == nil {
		return nil, fmt.Errorf("%s: %w", path, ErrExists)
	}
	final, err := catfile.FinalPath(path)
	if err != nil {
		return nil, cannot(path, err)
	}
	dir := filepath.Dir(final)
	RemoveStale(dir)
	lock, tmp, err := createTemp(dir, filepath.Base(final), true)
	if err != nil {
		return nil, cannot(path, err)
	}
	return &Folder{name: path, final: final, tmp: tmp, lock: lock}, nil
}

// Path is where to write the folder's files until Commit.
func (d *Folder) Path() string { return d.tmp }

// Commit syncs the files written into the folder and renames it into place.
func (d *Folder) Commit() error {
	if d.done {
		return nil
	}
	d.done = true
	defer d.lock.Close()
	defer os.RemoveAll(d.tmp) // if anything below fails
	err := filepath.WalkDir(d.tmp, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return syncPath(path)
	})
	if err != nil {
		return cannot(d.name, err)
	}
	if err := os.Chmod(d.tmp, 0o755); err != nil {
		return cannot(d.name, err)
	}
	if err := os.Rename(d.tmp, d.final); err != nil {
		return cannot(d.name, err)
	}
	return cannot(d.name, syncFolder(filepath.Dir(d.final)))
}

// Abort removes the temporary folder.
func (d *Folder) Abort() {
	if d.done {
		return
	}
	d.done = true
	os.RemoveAll(d.tmp)
	d.lock.Close()
}

// staleName matches solcat's temporary files and folders.
var staleName = regexp.MustCompile(`^\..+\.solcat-[0-9a-z]+\.tmp$`)

// RemoveStale removes from dir the temporary files and folders of exports
// whose writer is gone: their lock is free.
func RemoveStale(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !staleName.MatchString(e.Name()) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			os.RemoveAll(path)
		}
		f.Close()
	}
}

// createTemp makes .BASE.solcat-RANDOM.tmp in dir, a file or a folder,
// and locks it for as long as the returned file stays open.
func createTemp(dir, base string, folder bool) (*os.File, string, error) {
	pattern := "." + base + ".solcat-*.tmp"
	if folder {
		path, err := os.MkdirTemp(dir, pattern)
		if err != nil {
			return nil, "", err
		}
		f, err := os.Open(path)
		if err == nil {
			err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		}
		if err != nil {
			os.RemoveAll(path)
			return nil, "", err
		}
		return f, path, nil
	}
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, "", err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, "", err
	}
	return f, f.Name(), nil
}

// checkFolder refuses a path whose folder, as written (a/b/../x needs a/b),
// does not exist.
func checkFolder(path string) error {
	dir := catfile.ParentOf(path)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return fmt.Errorf("%s: %w (%s)", path, ErrNoFolder, dir)
	}
	return nil
}

// sameFile reports whether info is the file w writes to, looking through
// writers that wrap another (Unwrap).
func sameFile(info fs.FileInfo, w io.Writer) bool {
	for {
		switch v := w.(type) {
		case interface{ Stat() (fs.FileInfo, error) }:
			out, err := v.Stat()
			return err == nil && os.SameFile(info, out)
		case interface{ Unwrap() io.Writer }:
			w = v.Unwrap()
		default:
			return false
		}
	}
}

func syncFolder(dir string) error {
	return syncPath(dir)
}

func syncPath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) { // some file systems cannot sync a folder
		return err
	}
	return nil
}

// cannot says that writing name failed, naming the cause but no temporary
// file: the user asked for name and knows nothing of the others.
func cannot(name string, err error) error {
	if err == nil {
		return nil
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	return &WriteError{Name: name, Err: err}
}

// WriteError is a failure to write the destination the user named.
type WriteError struct {
	Name string
	Err  error
}

func (e *WriteError) Error() string { return fmt.Sprintf("cannot write %s: %v", e.Name, e.Err) }
func (e *WriteError) Unwrap() error { return e.Err }

var _ io.Writer = (*File)(nil)
