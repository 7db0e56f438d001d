package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"solcat/catalog/catfile"
)

// The tests of this file run the real binary on real files: links,
// permissions, mounts, processes killed and interrupted. Each case checks
// the exit status, the one line on stderr, and what became of every file
// in the folder: byte for byte the same after a query, one file after a
// build, with the content of an uninterrupted build.

// filesCase is one run of solcat in a folder made for it.
type filesCase struct {
	name  string
	state string   // the folder's state, made by fileStates
	args  []string // {d} is the folder; --db {d}/cat.db unless they name one
	code  int
	// stdout: the exact output, or "" for the output of the same command
	// on a plain catalog (for the queries), or "-" for any.
	stdout string
	stderr string // in the one stderr line; "" for no stderr at all
	// files: the names the folder holds afterwards and whether each is as
	// it was ("=") or may have changed ("~"); nil: every file as it was.
	files map[string]string
	check func(t *testing.T, dir string) // more checks, on the folder afterwards
}

// queryCommands are the commands that only read, with what each prints
// on the fixture catalog (queens:1-8, magic:1-4).
var queryCommands = []struct {
	name string
	args []string
	want string // "" where only the plain catalog's output is compared
}{
	{"count", []string{"count", "queens:8"}, "92\n"},
	{"count a cell", []string{"count", "magic:4", "--cell", "1,1=1"}, "416\n"},
	{"list", []string{"list", "queens:6", "--limit", "3"}, "2 4 6 1 3 5\n3 6 2 5 1 4\n4 1 5 2 6 3\n"},
	{"classes", []string{"classes", "queens:8", "--format", "csv"}, ""},
	{"show", []string{"show", "queens:8", "1"}, ""},
	{"show a solution", []string{"show", "queens:8", "--solution", "1", "--format", "json"}, ""},
	{"stats", []string{"stats", "queens:8", "--by", "row:1"}, ""},
	{"info", []string{"info", "--format", "csv"}, ""},
	{"verify", []string{"verify", "queens:8"}, ""},
	{"sql", []string{"sql", "SELECT name, solutions FROM puzzles ORDER BY name LIMIT 3"}, ""},
	{"export", []string{"export", "queens:8", "--output", "-", "--format", "csv"}, ""},
	{"count classes", []string{"count", "queens:8", "--classes"}, "12\n"},
	{"list with a filter", []string{"list", "magic:4", "--cell", "1,1=1", "--limit", "2", "--format", "json"}, ""},
	{"statistics of groups", []string{"stats", "magic:4", "--by", "group"}, ""},
	{"a puzzle not built", []string{"count", "queens:12"}, ""},
}

func TestCatalogFilesUnderHostileUse(t *testing.T) {
	t.Parallel() // processes and files of its own (see TestMain)
	bin := binary(t)
	killedPuzzle := killedPuzzle()
	var cases []filesCase
	add := func(c filesCase) { cases = append(cases, c) }

	// 1. Queries change nothing, through any name, on any kind of file:
	// every query on the plain file; on each other kind, every fifth
	// (each query on one kind), every query with SOLCAT_LONG=1.
	for si, state := range []string{"plain", "symlink", "hardlink", "readonly-file", "readonly-folder", "readonly-mount"} {
		for qi, q := range queryCommands {
			if si > 0 && qi%5 != si%5 && !longTests() {
				continue
			}
			args := q.args
			if state == "symlink" || state == "hardlink" {
				args = append([]string{"--db", "{d}/" + map[string]string{"symlink": "link.db", "hardlink": "hard.db"}[state]}, args...)
			}
			c := filesCase{name: state + "/" + q.name, state: state, args: args, stdout: q.want}
			switch q.name {
			case "a puzzle not built":
				c.code, c.stdout, c.stderr = 1, "-", "queens:12 is not in the catalog"
			case "info":
				c.stderr = "toroidal or superqueen counts; 'solcat info' or --format json lists them" // the csv lists the puzzles; stderr the rest
			}
			add(c)
		}
	}
	// A catalog this solcat cannot read: refused, and nothing is made
	// (every third query; all with SOLCAT_LONG=1).
	for qi, q := range queryCommands {
		if qi%3 != 0 && !longTests() {
			continue
		}
		add(filesCase{name: "newer schema/" + q.name, state: "newer", args: q.args, code: 1, stdout: "-", stderr: "schema is newer than this solcat"})
	}
	// A build with nothing to do writes nothing.
	for _, state := range []string{"plain", "symlink"} {
		args := []string{"build", "queens:8"}
		if state == "symlink" {
			args = append([]string{"--db", "{d}/link.db"}, args...)
		}
		add(filesCase{name: state + "/build already built", state: state, args: args, stdout: "queens:8  already built: 92 solutions, 12 classes; use --force to rebuild\n"})
	}

	// Builds where nothing may be written are refused, and write nothing.
	for _, c := range []struct{ state, want string }{
		{"readonly-file", "cannot write catalog {d}/cat.db: the file is read-only; make it writable"},
		{"readonly-folder", "cannot write catalog {d}/cat.db: its folder is not writable"},
		{"readonly-mount", "cannot write catalog {d}/cat.db: its folder is not writable"},
		{"newer", "schema is newer than this solcat"},
	} {
		add(filesCase{name: c.state + "/build", state: c.state, args: []string{"build", "queens:9", "--force"}, code: 1, stdout: "-", stderr: c.want})
	}

	// 2. A log left by a killed build: the next solcat that may write the
	// file copies it in and removes it; one that may not reads through it.
	unfinished := func(t *testing.T, dir string) {
		t.Helper()
		_, out, _ := solcatDB(filepath.Join(dir, "cat.db"), "sql", "SELECT count(*) FROM builds WHERE puzzle = '"+killedPuzzle+"'")
		if out != "count(*)\n1\n" {
			t.Errorf("the killed build's saved units: %q", out)
		}
	}
	for _, q := range queryCommands {
		if !longTests() && !slices.Contains([]string{"count", "info", "verify", "export"}, q.name) {
			continue // these reach every part of the file; all with SOLCAT_LONG=1
		}
		c := filesCase{name: "killed build's log/" + q.name, state: "killed", args: q.args, stdout: q.want,
			files: map[string]string{"cat.db": "~"}, check: unfinished}
		switch q.name {
		case "a puzzle not built":
			c.code, c.stdout, c.stderr = 1, "-", "queens:12 is not in the catalog"
		case "info":
			c.stderr = "not in the CSV: " + killedPuzzle + " (unfinished)" // the csv lists the finished puzzles; stderr the rest
		}
		add(c)
	}
	for _, q := range queryCommands[:4] {
		add(filesCase{name: "killed build's log, read-only folder/" + q.name, state: "killed-readonly", args: q.args, stdout: q.want})
	}
	add(filesCase{name: "killed build's log/count the killed build", state: "killed", args: []string{"count", killedPuzzle}, code: 1, stdout: "-",
		stderr: killedPuzzle + " is unfinished: its build stopped with", files: map[string]string{"cat.db": "~"}})
	add(filesCase{name: "killed build's log/resumed", state: "killed", args: []string{"build", killedPuzzle}, stdout: "-",
		stderr: killedPuzzle + ": resuming from", files: map[string]string{"cat.db": "~"},
		check: func(t *testing.T, dir string) { sameContent(t, filepath.Join(dir, "cat.db"), killedPuzzle) }})

	// 3. Names: one catalog, one builder, whatever the name.
	add(filesCase{name: "names/build through a hard link", state: "hardlink", args: []string{"--db", "{d}/hard.db", "build", "queens:9", "--force"},
		code: 1, stdout: "-", stderr: "cannot write catalog " + "{d}/hard.db: the file has more than one name (hard links)"})
	add(filesCase{name: "names/build through the linked name", state: "hardlink", args: []string{"build", "queens:9", "--force"},
		code: 1, stdout: "-", stderr: "the file has more than one name (hard links), and SQLite keeps its log beside one name only"})
	add(filesCase{name: "names/new puzzle through a hard link", state: "hardlink", args: []string{"build", "queens:10"},
		code: 1, stdout: "-", stderr: "more than one name"})
	add(filesCase{name: "names/merge into a hard-linked catalog", state: "hardlink-shards", args: []string{"merge", "{d}/hard.db", "{d}/s1.db", "{d}/s2.db", "--force"},
		code: 1, stdout: "-", stderr: "more than one name"})
	add(filesCase{name: "names/build through a symbolic link", state: "symlink", args: []string{"--db", "{d}/link.db", "build", "queens:9", "--force"},
		stdout: "-", files: map[string]string{"cat.db": "~", "link.db": "="},
		check: func(t *testing.T, dir string) { sameContent(t, filepath.Join(dir, "cat.db"), "queens:9") }})
	add(filesCase{name: "names/merge through a symbolic link", state: "shards-link", args: []string{"merge", "{d}/out-link.db", "{d}/s1.db", "{d}/s2.db"}, stdout: "-",
		files: map[string]string{"cat.db": "=", "s1.db": "=", "s2.db": "=", "out-link.db": "=", "out.db": "~"}})
	add(filesCase{name: "names/new catalog through a dangling link", state: "dangling", args: []string{"--db", "{d}/link.db", "build", "queens:6"},
		stdout: "-", files: map[string]string{"link.db": "=", "sub": "=", "sub/new.db": "~"}})
	add(filesCase{name: "names/second build through a symbolic link", state: "building", args: []string{"--db", "{d}/link.db", "build", "queens:9", "--force"},
		code: 1, stdout: "-", stderr: "is being written by another solcat: process"})
	add(filesCase{name: "names/second build through the file's name", state: "building-via-link", args: []string{"build", "queens:9", "--force"},
		code: 1, stdout: "-", stderr: "is being written by another solcat: process"})
	add(filesCase{name: "names/second build through a later hard link", state: "building-hardlink", args: []string{"--db", "{d}/hard.db", "build", "queens:9", "--force"},
		code: 1, stdout: "-", stderr: "more than one name"})
	add(filesCase{name: "names/count through a symbolic link during a build", state: "building", args: []string{"--db", "{d}/link.db", "count", "queens:15"},
		code: 1, stdout: "-", stderr: "queens:15 is being built"})
	add(filesCase{name: "names/count through a later hard link during a build", state: "building-hardlink", args: []string{"--db", "{d}/hard.db", "count", "queens:15"},
		code: 1, stdout: "-", stderr: "queens:15 is being built"})
	add(filesCase{name: "names/other puzzles answer through a hard link during a build", state: "building-hardlink", args: []string{"--db", "{d}/hard.db", "count", "queens:8"},
		stdout: "92\n"})

	// 4. Every writer that ends leaves one file.
	add(filesCase{name: "at rest/build with readers in a loop", state: "plain", args: []string{"build", "queens:14"}, stdout: "-",
		files: map[string]string{"cat.db": "~"}, check: readersDuring})
	add(filesCase{name: "at rest/build stopped by Ctrl-C", state: "plain", args: []string{"build", "queens:15"}, code: 1, stdout: "-",
		stderr: "interrupted", files: map[string]string{"cat.db": "~"}, check: interruptedBuild})
	add(filesCase{name: "at rest/build refused by the build lock", state: "building", args: []string{"build", "queens:10"}, code: 1, stdout: "-",
		stderr: "is being written by another solcat"})
	add(filesCase{name: "at rest/merge", state: "shards", args: []string{"merge", "{d}/out.db", "{d}/s1.db", "{d}/s2.db"}, stdout: "-",
		files: map[string]string{"cat.db": "=", "s1.db": "=", "s2.db": "=", "out.db": "~"}})
	add(filesCase{name: "at rest/build waits for a long query", state: "plain", args: []string{"build", "queens:9", "--force"}, stdout: "-",
		files: map[string]string{"cat.db": "~"}, check: longReaderDuring})

	// 5. Faults: a disk full from the first byte leaves nothing behind.
	for _, size := range []string{"12k", "64k", "128k", "256k"} {
		add(filesCase{name: "full disk/new catalog in " + size, state: "tmpfs-" + size, args: []string{"--db", "{d}/new.db", "build", "queens:1-8"},
			code: 1, stdout: "-", stderr: "the disk is full", files: map[string]string{}})
	}

	if len(cases) < 150 && longTests() || len(cases) < 60 {
		t.Fatalf("only %d cases", len(cases))
	}
	plain := map[string]string{} // each query's output on the plain catalog
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && (strings.HasPrefix(tc.state, "killed") || strings.HasPrefix(tc.state, "building") || strings.HasPrefix(tc.name, "at rest")) {
				t.Skip("runs builds in processes; without -short only")
			}
			dir, user, cleanup := fileStates(t, bin, tc.state)
			defer cleanup()
			args := tc.args
			if len(args) == 0 || !strings.HasPrefix(args[0], "--db") {
				args = append([]string{"--db", "{d}/cat.db"}, args...)
			}
			args = append([]string(nil), args...)
			for i, a := range args {
				args[i] = strings.ReplaceAll(a, "{d}", dir)
			}
			before := folderState(t, dir)
			var code int
			var out, errOut string
			if tc.check != nil && (tc.name == "at rest/build with readers in a loop" || tc.name == "at rest/build stopped by Ctrl-C" || tc.name == "at rest/build waits for a long query") {
				code, out, errOut = runWithCompany(t, bin, tc.name, dir, args)
			} else {
				code, out, errOut = runAs(bin, user, args)
			}
			if code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", code, tc.code, errOut)
			}
			want := strings.ReplaceAll(tc.stderr, "{d}", dir)
			switch {
			case want == "" && errOut != "" && tc.stdout != "-":
				t.Errorf("stderr %q, want none", errOut)
			case want != "":
				line := lastLine(errOut)
				if !strings.Contains(line, want) || !strings.HasPrefix(line, "solcat: ") && !strings.HasPrefix(line, tc.args[len(tc.args)-1]) || strings.Contains(errOut, "goroutine") {
					t.Errorf("stderr %q does not end in one line saying %q", errOut, want)
				}
			}
			key := strings.Join(tc.args, " ")
			switch {
			case tc.stdout == "-":
			case tc.stdout != "":
				if out != tc.stdout {
					t.Errorf("stdout %q, want %q", out, tc.stdout)
				}
			case tc.state == "plain":
				plain[key] = out
				if out == "" {
					t.Error("no output")
				}
			default:
				if was, ok := plain[key]; ok && out != was {
					t.Errorf("stdout differs from the plain catalog's:\n%s\nwas\n%s", out, was)
				}
			}
			after := folderState(t, dir)
			if strings.HasPrefix(tc.state, "building") {
				// The running build's files change: only the others must not.
				for _, state := range []map[string]string{before, after} {
					for name := range state {
						if strings.HasPrefix(name, "cat.db") || name == "hard.db" {
							delete(state, name)
						}
					}
				}
			}
			checkFiles(t, before, after, tc.files)
			if tc.check != nil {
				tc.check(t, dir)
			}
		})
	}
}

// lastLine is the last line of s, without its newline.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// checkFiles compares the folder before and after: with want nil, every
// file as it was and none new; else exactly the names of want, each the
// same ("=") or not compared ("~").
func checkFiles(t *testing.T, before, after map[string]string, want map[string]string) {
	t.Helper()
	if want == nil {
		want = map[string]string{}
		for name := range before {
			want[name] = "="
		}
	}
	want["."] = "=" // the folder itself
	var names []string
	for name := range after {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		how, ok := want[name]
		switch {
		case !ok:
			t.Errorf("%s is there afterwards (the folder holds %s)", name, strings.Join(names, ", "))
		case how == "=" && after[name] != before[name]:
			t.Errorf("%s changed", name)
		}
	}
	for name := range want {
		if _, ok := after[name]; !ok {
			t.Errorf("%s is gone", name)
		}
	}
}

// runAs runs the binary, as the user nobody if user says so (when this
// runs as root, which may write anything).
func runAs(bin, user string, args []string) (int, string, string) {
	cmd := exec.Command(bin, args...)
	if user == "nobody" {
		cmd = exec.Command("setpriv", append([]string{"--reuid=65534", "--regid=65534", "--clear-groups", bin}, args...)...)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	cmd.Run()
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

var (
	killedOnce  sync.Once
	killedDir   string
	killedError error
)

// killedPuzzle is the puzzle whose build killedBuild kills: queens:14, on
// one worker a second's build, killed some 0.4 s in (queens:15 with
// SOLCAT_LONG=1, killed later).
func killedPuzzle() string {
	if longTests() {
		return "queens:15"
	}
	return "queens:14"
}

// killedBuild makes, once, a catalog whose build of killedPuzzle was killed
// with SIGKILL after it saved some units (its log past 512 KiB, 4 MB for
// queens:15): cat.db with its -wal, -shm and lock files.
func killedBuild(t *testing.T, bin string) string {
	t.Helper()
	killedOnce.Do(func() {
		dir, err := os.MkdirTemp("", "solcat-killed-")
		if err != nil {
			killedError = err
			return
		}
		killedDir = dir
		db := filepath.Join(dir, "cat.db")
		logged := int64(512 << 10)
		if longTests() {
			logged = 4 << 20
		}
		// On a fast machine queens:14's build may end before its log
		// reaches the mark: then it is run again, killed sooner.
		for try := 0; try < 4; try, logged = try+1, logged/2 {
			for _, suffix := range killedFiles {
				os.Remove(db + suffix)
			}
			copyFile(t, filepath.Join(fixtureFolder(t), "cat.db"), db)
			killedError = killBuildAt(bin, db, logged)
			if killedError == nil {
				return
			}
		}
	})
	if killedError != nil {
		t.Fatal(killedError)
	}
	return killedDir
}

// killedFiles are the files beside cat.db that a killed build leaves.
var killedFiles = []string{"-wal", "-shm", ".lock"}

// killBuildAt starts a build of killedPuzzle into db and kills it with
// SIGKILL once its log is past logged bytes; it fails if the build ended
// first.
func killBuildAt(bin, db string, logged int64) error {
	cmd := exec.Command(bin, "--db", db, "build", killedPuzzle(), "--workers", "1")
	if err := cmd.Start(); err != nil {
		return err
	}
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if info, err := os.Stat(db + "-wal"); err == nil && info.Size() > logged {
			break
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	for _, suffix := range killedFiles {
		if _, err := os.Stat(db + suffix); err != nil {
			return fmt.Errorf("the killed build left no %s", filepath.Base(db+suffix))
		}
	}
	return nil
}

// fileStates makes a folder in the named state and says as whom to run
// solcat in it. The folder holds cat.db, a catalog of queens:1-8 and
// magic:1-4, and, by state:
//
//	plain            nothing else
//	symlink          link.db, a symbolic link to cat.db
//	hardlink         hard.db, a second name of cat.db
//	readonly-file    cat.db of mode 0444; solcat runs as nobody
//	readonly-folder  the folder of mode 0555; solcat runs as nobody
//	readonly-mount   the folder mounted read-only (root only)
//	newer            cat.db of a newer schema
//	killed           the files of a build of killedPuzzle killed by SIGKILL
//	killed-readonly  the same, in a read-only folder; solcat runs as nobody
//	shards           s1.db, s2.db: the count shards of queens:8
//	hardlink-shards  both of the above
//	shards-link      the shards, and out-link.db, a link to out.db, not made yet
//	dangling         link.db, a symbolic link to sub/new.db, not made yet
//	building         link.db, and a build of queens:15 running through cat.db
//	building-via-link  the same, the build running through link.db
//	building-hardlink  a build of queens:15 running, then hard.db linked
//	tmpfs-SIZE       an empty folder on a file system of that size (root only)
func fileStates(t *testing.T, bin, state string) (dir, user string, cleanup func()) {
	t.Helper()
	cleanup = func() {}
	base := t.TempDir()
	dir = filepath.Join(base, "cat")
	os.Mkdir(dir, 0o755)
	db := filepath.Join(dir, "cat.db")
	if !strings.HasPrefix(state, "tmpfs-") && !strings.HasPrefix(state, "killed") {
		copyFile(t, filepath.Join(fixtureFolder(t), "cat.db"), db)
	}
	asNobody := func() {
		if os.Geteuid() != 0 {
			t.Skip("needs root, to run solcat as another user")
		}
		if _, err := exec.LookPath("setpriv"); err != nil {
			t.Skip("needs setpriv, to run solcat as another user")
		}
		os.Chmod(filepath.Dir(base), 0o755) // the test's temporary folders are private
		os.Chmod(base, 0o755)
		user = "nobody"
	}
	switch state {
	case "plain", "newer":
		if state == "newer" {
			execSQL(t, db, "INSERT INTO solcat_schema_version (version_id, is_applied) VALUES (99, 1)")
		}
	case "symlink":
		os.Symlink("cat.db", filepath.Join(dir, "link.db"))
	case "hardlink":
		os.Link(db, filepath.Join(dir, "hard.db"))
	case "readonly-file":
		asNobody()
		os.Chmod(db, 0o444)
		os.Chmod(dir, 0o777) // the folder may be written: only the file may not
	case "readonly-folder":
		asNobody()
		os.Chmod(dir, 0o555)
		cleanup = func() { os.Chmod(dir, 0o755) }
	case "readonly-mount":
		if os.Geteuid() != 0 {
			t.Skip("needs root, to mount a folder read-only")
		}
		ro := filepath.Join(base, "ro")
		os.Mkdir(ro, 0o755)
		if out, err := exec.Command("mount", "--bind", dir, ro).CombinedOutput(); err != nil {
			t.Skipf("cannot bind-mount a folder here: %s", out)
		}
		if out, err := exec.Command("mount", "-o", "remount,ro,bind", ro).CombinedOutput(); err != nil {
			exec.Command("umount", ro).Run()
			t.Skipf("cannot mount a folder read-only here: %s", out)
		}
		dir = ro
		cleanup = func() { exec.Command("umount", ro).Run() }
	case "killed", "killed-readonly":
		src := killedBuild(t, bin)
		for _, name := range []string{"cat.db", "cat.db-wal", "cat.db-shm", "cat.db.lock"} {
			copyFile(t, filepath.Join(src, name), filepath.Join(dir, name))
		}
		if state == "killed-readonly" {
			asNobody()
			os.Chmod(dir, 0o555)
			cleanup = func() { os.Chmod(dir, 0o755) }
		}
	case "shards", "hardlink-shards", "shards-link":
		for i, shard := range []string{"s1.db", "s2.db"} {
			if code, _, errOut := runAs(bin, "", []string{"--db", filepath.Join(dir, shard), "build", "queens:8", "--count-only", "--shard", fmt.Sprintf("%d/2", i+1)}); code != 0 {
				t.Fatal(errOut)
			}
		}
		switch state {
		case "hardlink-shards":
			os.Link(db, filepath.Join(dir, "hard.db"))
		case "shards-link":
			os.Symlink("out.db", filepath.Join(dir, "out-link.db")) // not made yet
		}
	case "dangling":
		os.Remove(db)
		os.Mkdir(filepath.Join(dir, "sub"), 0o755)
		os.Symlink("sub/new.db", filepath.Join(dir, "link.db"))
	case "building", "building-via-link", "building-hardlink":
		os.Symlink("cat.db", filepath.Join(dir, "link.db"))
		name := db
		if state == "building-via-link" {
			name = filepath.Join(dir, "link.db")
		}
		cmd := exec.Command(bin, "--db", name, "build", "queens:15", "--workers", "1")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cleanup = func() { cmd.Process.Kill(); cmd.Wait() }
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			if h, ok := catfile.RunningWriter(db); ok && h.PID == cmd.Process.Pid {
				break
			}
			if time.Now().After(deadline) {
				cleanup()
				t.Fatal("the build did not begin")
			}
		}
		if state == "building-hardlink" {
			os.Link(db, filepath.Join(dir, "hard.db"))
		}
	default:
		size, ok := strings.CutPrefix(state, "tmpfs-")
		if !ok {
			t.Fatalf("no state %q", state)
		}
		if os.Geteuid() != 0 {
			t.Skip("needs root, to mount a small file system")
		}
		os.Remove(dir)
		os.Mkdir(dir, 0o755)
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size="+size, "tmpfs", dir).CombinedOutput(); err != nil {
			t.Skipf("cannot mount a tmpfs here: %s", out)
		}
		cleanup = func() { exec.Command("umount", dir).Run() }
	}
	return dir, user, cleanup
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err == nil {
		err = os.WriteFile(to, data, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// sameContent checks that the puzzle in db has the content hash of a build
// of it made whole in a new catalog.
func sameContent(t *testing.T, db, puzzle string) {
	t.Helper()
	if a, b := contentHash(t, db, puzzle), wholeContent(t, puzzle); a != b {
		t.Errorf("%s: content %s, a whole build %s", puzzle, a, b)
	}
}

var (
	wholeMu     sync.Mutex
	wholeHashes = map[string]string{}
)

// wholeContent is the content hash of a build of the puzzle made whole in a
// new catalog: the default catalog's, for the puzzles it holds (TestMain
// builds it so); for the others, a build made once for all the tests that
// ask.
func wholeContent(t *testing.T, puzzle string) string {
	t.Helper()
	wholeMu.Lock()
	defer wholeMu.Unlock()
	if h, ok := wholeHashes[puzzle]; ok {
		return h
	}
	db := catalogPath
	if code, _, _ := solcat("count", puzzle); code != 0 {
		dir, err := os.MkdirTemp("", "solcat-whole-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		db = filepath.Join(dir, "whole.db")
		if code, _, errOut := solcatDB(db, "build", puzzle); code != 0 {
			t.Fatal(errOut)
		}
	}
	wholeHashes[puzzle] = contentHash(t, db, puzzle)
	return wholeHashes[puzzle]
}

// runWithCompany runs a build while other processes use the catalog, as
// the case named says: readers in a loop, a Ctrl-C, a query that reads
// for seconds. It checks what the case is about and returns the build's
// exit status and output.
func runWithCompany(t *testing.T, bin, name, dir string, args []string) (int, string, string) {
	db := filepath.Join(dir, "cat.db")
	cmd := exec.Command(bin, args...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	switch name {
	case "at rest/build with readers in a loop":
		// Two readers, each starting a query 100 ms after its last ended
		// (at once with SOLCAT_LONG=1): a dozen queries or more across
		// the build's commits and checkpoints, not forty, each a
		// process's start.
		pause := 100 * time.Millisecond
		if longTests() {
			pause = 0
		}
		stop := make(chan struct{})
		var readers sync.WaitGroup
		var reads atomic.Int64
		for range 2 {
			readers.Add(1)
			go func() {
				defer readers.Done()
				for {
					reads.Add(1)
					if code, got, errOut := runAs(bin, "", []string{"--db", db, "count", "queens:8"}); code != 0 || got != "92\n" {
						t.Errorf("a reader during the build: exit %d, %q %q", code, got, errOut)
					}
					select {
					case <-stop:
						return
					case <-time.After(pause):
					}
				}
			}()
		}
		time.Sleep(100 * time.Millisecond)
		cmd.Run()
		close(stop)
		readers.Wait()
		t.Logf("%d queries during the build", reads.Load())
	case "at rest/build stopped by Ctrl-C":
		cmd.Start()
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if info, err := os.Stat(db + "-wal"); err == nil && info.Size() > 1<<20 {
				break
			}
		}
		cmd.Process.Signal(syscall.SIGINT)
		cmd.Wait()
	case "at rest/build waits for a long query":
		// A query whose output nobody reads for three seconds holds its
		// connection open: the build must wait for it, say so, then finish
		// with one file.
		reader := exec.Command(bin, "--db", db, "export", "magic:4", "--output", "-", "--format", "csv") // more than a pipe holds
		pipe, _ := reader.StdoutPipe()
		reader.Start()
		first := make([]byte, 10)
		io.ReadFull(pipe, first) // it has begun
		go func() {
			time.Sleep(5 * time.Second)
			io.Copy(io.Discard, pipe)
		}()
		start := time.Now()
		cmd.Run()
		reader.Wait()
		if waited := time.Since(start); waited < 4*time.Second {
			t.Errorf("the build ended after %v, before the query it should wait for", waited)
		}
		if !strings.Contains(errOut.String(), "waiting for the queries reading") {
			t.Errorf("the build did not say it waits: %q", errOut.String())
		}
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

// readersDuring checks the catalog after the build with readers: a copy of
// the file alone holds the finished puzzle.
func readersDuring(t *testing.T, dir string) {
	alone := filepath.Join(t.TempDir(), "alone.db")
	copyFile(t, filepath.Join(dir, "cat.db"), alone)
	if code, out, errOut := solcatDB(alone, "count", "queens:14"); code != 0 || out != "365596\n" {
		t.Errorf("a copy of the file alone: exit %d, %q %q", code, out, errOut)
	}
	sameContent(t, alone, "queens:14")
}

// interruptedBuild checks that the interrupted build resumes to the
// content of a whole one, with SOLCAT_LONG=1 (the killed build's log is
// resumed so by default).
func interruptedBuild(t *testing.T, dir string) {
	if !longTests() {
		return
	}
	db := filepath.Join(dir, "cat.db")
	if code, _, errOut := solcatDB(db, "build", "queens:15"); code != 0 || !strings.Contains(errOut, "resuming") {
		t.Fatalf("resuming: exit %d, %q", code, errOut)
	}
	sameContent(t, db, "queens:15")
}

// longReaderDuring checks the rebuilt puzzle.
func longReaderDuring(t *testing.T, dir string) {
	sameContent(t, filepath.Join(dir, "cat.db"), "queens:9")
}
