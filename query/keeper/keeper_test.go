package keeper

import (
	"errors"
	"testing"
)

// TestStoppedError: what a count stopped by Ctrl-C says it kept.
func TestStoppedError(t *testing.T) {
	for _, c := range []struct {
		err  StoppedError
		want string
	}{
		{StoppedError{}, "interrupted; nothing was recorded"},
		{StoppedError{Saved: 1200, Units: 4096}, "interrupted; 1,200 of 4,096 units are saved"},
		{StoppedError{Saved: 3, Units: 10, SaveErr: errors.New("disk full")}, "interrupted; the units counted could not be saved (disk full)"},
		{StoppedError{Columns: 1}, "interrupted; 1 column counted and kept"},
		{StoppedError{Columns: 7}, "interrupted; 7 columns counted and kept"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.err, got, c.want)
		}
	}
}
