package console

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: the side a program writes to (a
// terminal for IsTerminal) and the side that reads what it shows.
func openPTY(t *testing.T) (term, screen *os.File) {
	t.Helper()
	screen, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skip("no pseudo-terminals here:", err)
	}
	t.Cleanup(func() { screen.Close() })
	fd := int(screen.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Skip("cannot unlock a pseudo-terminal:", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Skip("cannot name a pseudo-terminal:", err)
	}
	term, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skip("cannot open a pseudo-terminal:", err)
	}
	t.Cleanup(func() { term.Close() })
	return term, screen
}

// TestInterruptedOnATerminal holds that the line saying a command was
// interrupted starts a line of its own on a terminal (the ^C the terminal
// echoed is not glued to it), and that nothing is added where stderr is a
// file or a pipe.
func TestInterruptedOnATerminal(t *testing.T) {
	for _, tc := range []struct {
		name     string
		terminal bool

		ended bool // the context: Ctrl-C was pressed
		want  string
	}{
		{"terminal", true, true, "\r\nsolcat: interrupted\r\n"},
		{"terminal, not interrupted", true, false, "solcat: interrupted\r\n"},
		{"file", false, true, "solcat: interrupted\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var w *os.File
			var read func() string
			if tc.terminal {
				term, screen := openPTY(t)
				w = term
				read = func() string {
					buf := make([]byte, 256)
					screen.SetReadDeadline(time.Now().Add(2 * time.Second))
					got := ""
					for !strings.HasSuffix(got, "interrupted\r\n") {
						n, err := screen.Read(buf)
						got += string(buf[:n])
						if err != nil {
							break
						}
					}
					return got
				}
			} else {
				f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
				if err != nil {
					t.Fatal(err)
				}
				w = f
				read = func() string { b, _ := os.ReadFile(f.Name()); return string(b) }
			}
			ctx, cancel := context.WithCancel(context.Background())
			if tc.ended {
				cancel()
			}
			defer cancel()
			Interrupted(ctx, w)
			fmt.Fprintln(w, "solcat: interrupted")
			if got := read(); got != tc.want {
				t.Errorf("%q, want %q", got, tc.want)
			}
		})
	}
}
