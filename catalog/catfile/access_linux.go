package catfile

import (
	"errors"

	"golang.org/x/sys/unix"
)

// Try takes byte b, exclusively or shared, without waiting; false if
// another holder has it.
func (l *Locks) Try(b int64, exclusive bool) (bool, error) {
	lk := unix.Flock_t{Type: unix.F_RDLCK, Whence: 0, Start: b, Len: 1}
	if exclusive {
		lk.Type = unix.F_WRLCK
	}
	err := unix.FcntlFlock(l.f.Fd(), unix.F_OFD_SETLK, &lk)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, unix.EAGAIN), errors.Is(err, unix.EACCES):
		return false, nil
	case errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOLCK), errors.Is(err, unix.EOPNOTSUPP):
		return false, ErrNoByteLocks
	}
	return false, err
}

// Unlock lets go of byte b.
func (l *Locks) Unlock(b int64) {
	lk := unix.Flock_t{Type: unix.F_UNLCK, Whence: 0, Start: b, Len: 1}
	unix.FcntlFlock(l.f.Fd(), unix.F_OFD_SETLK, &lk)
}

// HeldByOther reports whether another holder has byte b: exclusively, or
// if exclusiveOnly is false, in any way.
func (l *Locks) HeldByOther(b int64, exclusiveOnly bool) (bool, error) {
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: b, Len: 1}
	if exclusiveOnly {
		lk.Type = unix.F_RDLCK
	}
	if err := unix.FcntlFlock(l.f.Fd(), unix.F_OFD_GETLK, &lk); err != nil {
		if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOLCK) || errors.Is(err, unix.EOPNOTSUPP) {
			return false, ErrNoByteLocks
		}
		return false, err
	}
	return lk.Type != unix.F_UNLCK, nil
}
