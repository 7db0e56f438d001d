package main

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"solcat/catalog/catfile"
)

// TestExportDestinations writes exports to standard output ("-"), a
// device, /dev/stdout and through links, and checks that nothing but the
// destination changes and that the format follows the file's name.
func TestExportDestinations(t *testing.T) {
	bin := binary(t)
	dir := t.TempDir()
	_, want, _ := solcat("export", "queens:6")

	// "-" is standard output, not a file named "-".
	cmd := exec.Command(bin, "--db", catalogPath, "export", "queens:6", "-o", "-")
	cmd.Dir = dir
	if out, err := cmd.Output(); err != nil || string(out) != want {
		t.Errorf("-o -: %v, %q", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "-")); err == nil {
		t.Error("-o - made a file named -")
	}
	// /dev/stdout is written through, and stays a link.
	cmd = exec.Command(bin, "--db", catalogPath, "export", "queens:6", "-o", "/dev/stdout")
	if out, err := cmd.Output(); err != nil || string(out) != want {
		t.Errorf("-o /dev/stdout: %v, %q", err, out)
	}
	if info, err := os.Lstat("/dev/stdout"); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("/dev/stdout is no longer a link: %v", err)
	}
	// A device is written, never replaced.
	if code, _, errOut := solcat("export", "queens:6", "-o", "/dev/null"); code != 0 {
		t.Errorf("-o /dev/null: %s", errOut)
	}
	if info, err := os.Stat("/dev/null"); err != nil || info.Mode()&fs.ModeCharDevice == 0 {
		t.Errorf("/dev/null is no longer a device: %v", err)
	}
	// A FIFO is written directly.
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	got := make(chan []byte)
	go func() {
		data, _ := os.ReadFile(fifo)
		got <- data
	}()
	if code, _, errOut := solcat("export", "queens:6", "-o", fifo); code != 0 {
		t.Errorf("-o fifo: %s", errOut)
	}
	if data := <-got; string(data) != want {
		t.Errorf("the fifo read %q", data)
	}
	// A link to a regular file stays a link; its target gets the rows.
	target := filepath.Join(dir, "target.csv")
	os.WriteFile(target, []byte("old\n"), 0o644)
	os.Symlink("target.csv", filepath.Join(dir, "link.csv"))
	if code, _, errOut := solcat("export", "queens:6", "-o", filepath.Join(dir, "link.csv")); code != 0 {
		t.Errorf("-o link.csv: %s", errOut)
	}
	if info, err := os.Lstat(filepath.Join(dir, "link.csv")); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Error("the link was replaced")
	}
	if data, _ := os.ReadFile(target); string(data) != want {
		t.Errorf("the link's target holds %q", data)
	}
	// The format follows the name.
	for name, magic := range map[string]string{"guess.parquet": "PAR1", "guess.jsonl": `{"id":1,`, "guess.csv": "id,class,", "GUESS.PARQUET": "PAR1"} {
		path := filepath.Join(dir, name)
		if code, _, errOut := solcat("export", "queens:6", "-o", path); code != 0 {
			t.Errorf("%s: %s", name, errOut)
		}
		if data, _ := os.ReadFile(path); !bytes.HasPrefix(data, []byte(magic)) {
			t.Errorf("%s starts %q, want %q", name, data[:min(len(data), 10)], magic)
		}
	}
	// A name without a known extension gets CSV, and --format decides.
	if code, _, _ := solcat("export", "queens:6", "-o", filepath.Join(dir, "rows.txt"), "--format", "jsonl"); code != 0 {
		t.Error("--format jsonl to rows.txt failed")
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "rows.txt")); !bytes.HasPrefix(data, []byte(`{"id":1,`)) {
		t.Errorf("rows.txt starts %q", data[:min(len(data), 10)])
	}
}

// TestParquetNotToTerminal runs export with standard output on a
// terminal: Parquet is refused, CSV is written.
func TestParquetNotToTerminal(t *testing.T) {
	bin := binary(t)
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptmx.Close()
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("cannot unlock a pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("no pseudo-terminal number: %v", err)
	}
	tty, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("cannot open the pseudo-terminal: %v", err)
	}
	defer tty.Close()
	go io.Copy(io.Discard, ptmx)
	for _, args := range [][]string{{"--format", "parquet"}, {"-o", "-", "--format", "parquet"}, {"-o", "/dev/stdout", "--format", "parquet"}} {
		var stderr bytes.Buffer
		cmd := exec.Command(bin, append([]string{"--db", catalogPath, "export", "queens:6"}, args...)...)
		cmd.Stdout, cmd.Stderr = tty, &stderr
		err := cmd.Run()
		if code := cmd.ProcessState.ExitCode(); code != 2 || !strings.Contains(stderr.String(), "Parquet is binary") {
			t.Errorf("%v to a terminal: %v, exit %d, %q", args, err, code, stderr.String())
		}
	}
	cmd := exec.Command(bin, "--db", catalogPath, "export", "queens:6")
	cmd.Stdout = tty
	if err := cmd.Run(); err != nil {
		t.Errorf("CSV to a terminal: %v", err)
	}
}

// TestInterruptedExportLeavesNothing stops exports with SIGINT (nothing is
// written, and it says so) and with SIGKILL (the temporary file stays
// behind, named as solcat's, and the next export into the folder removes
// it, but not one whose writer is still alive).
func TestInterruptedExportLeavesNothing(t *testing.T) {
	bin := binary(t)
	db := filepath.Join(t.TempDir(), "big.db")
	if code, _, errOut := solcatDB(db, "build", "queens:13"); code != 0 {
		t.Fatal(errOut)
	}
	dir := t.TempDir()
	temps := func() []string {
		m, _ := filepath.Glob(filepath.Join(dir, ".*.solcat-*.tmp"))
		return m
	}
	// A slow export: each of the 73,712 solutions as JSON lines, many times
	// over through --class filters would be slower still; one is enough if
	// stopped as soon as its temporary file appears.
	start := func(out string) *exec.Cmd {
		cmd := exec.Command(bin, "--db", db, "export", "queens:13", "-o", filepath.Join(dir, out))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(10 * time.Second); len(temps()) == 0 && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		return cmd
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		cmd := start("rows.csv")
		cmd.Process.Signal(sig)
		err := cmd.Wait()
		if cmd.ProcessState.ExitCode() == 0 {
			t.Logf("%v came too late: the export finished", sig)
			os.Remove(filepath.Join(dir, "rows.csv"))
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "rows.csv")); err == nil {
			t.Errorf("%v: rows.csv exists", sig)
		}
		stderr := cmd.Stderr.(*bytes.Buffer).String()
		switch sig {
		case syscall.SIGINT:
			if stderr != "solcat: interrupted; nothing was written\n" || len(temps()) != 0 {
				t.Errorf("SIGINT: %v, stderr %q, temporary files %v", err, stderr, temps())
			}
		case syscall.SIGKILL:
			if len(temps()) != 1 {
				t.Errorf("SIGKILL left %v", temps())
			}
		}
	}
	// A temporary file whose writer lives (its lock is held) is left alone.
	alive, err := os.Create(filepath.Join(dir, ".other.csv.solcat-live.tmp"))
	if err != nil {
		t.Fatal(err)
	}
	defer alive.Close()
	syscall.Flock(int(alive.Fd()), syscall.LOCK_EX)
	if code, _, errOut := solcatDB(db, "export", "queens:13", "--class", "1", "-o", filepath.Join(dir, "small.csv")); code != 0 {
		t.Fatal(errOut)
	}
	if got := temps(); len(got) != 1 || filepath.Base(got[0]) != ".other.csv.solcat-live.tmp" {
		t.Errorf("after the next export the temporary files are %v, want only the live one", got)
	}
}

// TestAnyFileName builds and queries catalogs, and exports to files, whose
// names SQLite's URI syntax would misread: each is used as itself.
func TestAnyFileName(t *testing.T) {
	t.Parallel() // reads the shared catalog, writes files of its own (see TestMain)
	for _, name := range []string{"with space.db", "b#1.db", "q?x.db", "p%41.db", "a&b=c.db", "new?mode=ro.db", "ünïcødé.db", "-lead.db", "file:x.db"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			db := filepath.Join(dir, name)
			if code, _, errOut := solcatDB(db, "build", "queens:6"); code != 0 {
				t.Fatal(errOut)
			}
			if code, out, errOut := solcatDB(db, "count", "queens:6"); code != 0 || out != "4\n" {
				t.Errorf("count: exit %d, %q %s", code, out, errOut)
			}
			// With the flag joined, as a name starting with a dash needs.
			if code, out, errOut := run2("--db="+db, "count", "queens:6", "--classes"); code != 0 || out != "1\n" {
				t.Errorf("--db=: exit %d, %q %s", code, out, errOut)
			}
			csv := filepath.Join(dir, strings.TrimSuffix(name, ".db")+".csv")
			if code, _, errOut := solcatDB(db, "export", "queens:6", "-o", csv); code != 0 || !strings.Contains(errOut, "wrote 4 rows") {
				t.Errorf("export: exit %d, %s", code, errOut)
			}
			entries, _ := os.ReadDir(dir)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			if len(names) != 2 || !(names[0] == name && names[1] == filepath.Base(csv) || names[1] == name && names[0] == filepath.Base(csv)) {
				t.Errorf("the folder holds %q, want only %q and %q", names, name, filepath.Base(csv))
			}
		})
	}
}

func run2(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, noStdin(), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestOtherProgramsDatabases checks that solcat writes nothing into an
// SQLite file that is not a catalog, and still takes over an empty one and
// its own older catalogs (made before they were marked).
func TestOtherProgramsDatabases(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	db, err := sql.Open("sqlite", empty)
	if err == nil {
		_, err = db.Exec("PRAGMA user_version = 0")
		db.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := solcatDB(empty, "build", "queens:5"); code != 0 {
		t.Errorf("an empty SQLite file: %s", errOut)
	}
	var id int64
	db, _ = sql.Open("sqlite", empty)
	db.QueryRow("PRAGMA application_id").Scan(&id)
	db.Close()
	if id != 0x536F6C43 {
		t.Errorf("application_id %#x, want solcat's", id)
	}
	// A catalog from before the mark: its tables say whose it is.
	old := filepath.Join(dir, "old.db")
	data, _ := os.ReadFile(empty)
	os.WriteFile(old, data, 0o644)
	db, _ = sql.Open("sqlite", old)
	_, err = db.Exec("PRAGMA application_id = 0")
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := solcatDB(old, "count", "queens:5"); code != 0 || out != "10\n" {
		t.Errorf("an unmarked solcat catalog: exit %d, %q %s", code, out, errOut)
	}
	if code, _, errOut := solcatDB(old, "build", "queens:6"); code != 0 {
		t.Errorf("building into an unmarked solcat catalog: %s", errOut)
	}
	// A file another program marked as its own.
	other := filepath.Join(dir, "other.db")
	db, _ = sql.Open("sqlite", other)
	_, err = db.Exec("PRAGMA application_id = 1234")
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	before := fileHash(t, other)
	if code, _, errOut := solcatDB(other, "build", "queens:4"); code != 1 || !strings.Contains(errOut, "application id 1234") {
		t.Errorf("another program's marked file: exit %d, %q", code, errOut)
	}
	if fileHash(t, other) != before {
		t.Error("the other program's file changed")
	}
}

// TestOneBuilderAtATime starts a build of seconds (queens:15; queens:16
// with SOLCAT_LONG=1) in a real process and checks that a second build
// stops at once naming it, that queries say "being built" from its first
// instant, that once it is killed queries say it is unfinished, and, with
// SOLCAT_LONG=1, that its saved work is resumed (by default the builds
// killed in TestStoredBuildSurvivesKills and TestCatalogFilesUnderHostileUse
// are resumed, seconds of processor time less than this one).
func TestOneBuilderAtATime(t *testing.T) {
	t.Parallel() // processes and files of its own (see TestMain)
	bin := binary(t)
	db := filepath.Join(t.TempDir(), "cat.db")
	puzzle, solutions := "queens:15", "2,279,184 solutions"
	if longTests() {
		puzzle, solutions = "queens:16", "14,772,512 solutions"
	}
	cmd := exec.Command(bin, "--db", db, "build", puzzle)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	// The lock and its holder's description come before any table.
	var holder catfile.Holder
	for deadline := time.Now().Add(10 * time.Second); ; {
		if data, err := os.ReadFile(db + ".lock"); err == nil && json.Unmarshal(data, &holder) == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the build took no lock")
		}
		time.Sleep(time.Millisecond)
	}
	if holder.PID != cmd.Process.Pid || !holder.Building(puzzle) {
		t.Errorf("the lock says %+v", holder)
	}
	code, out, errOut := solcatDB(db, "count", puzzle)
	if code != 1 || !strings.Contains(errOut, puzzle+" is being built") || !strings.Contains(errOut, fmt.Sprintf("process %d", cmd.Process.Pid)) || out != "" {
		t.Errorf("count at the build's start: exit %d, %q", code, errOut)
	}
	code, out, errOut = solcatDB(db, "build", puzzle)
	if code != 1 || !strings.Contains(errOut, "is being written by another solcat: process "+strconv.Itoa(cmd.Process.Pid)) || strings.Count(errOut, "\n") != 1 || out != "" {
		t.Errorf("a second build: exit %d, %q %q", code, out, errOut)
	}
	if code, _, errOut := solcatDB(db, "merge", db, "x.db"); code == 0 {
		t.Errorf("merge into a catalog being built: %s", errOut)
	}
	// Let it save a unit or two, then kill it: the lock goes with it.
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if _, out, _ := solcatDB(db, "info", "--format", "json"); strings.Contains(out, `"classes_done"`) && !strings.Contains(out, `"classes_done": 0,`) {
			break
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	if _, ok := catfile.RunningWriter(db); ok {
		t.Error("a killed build still counts as running")
	}
	if code, _, errOut := solcatDB(db, "count", puzzle); code != 1 || !strings.Contains(errOut, "is unfinished: its build stopped with") {
		t.Errorf("count after the kill: exit %d, %q", code, errOut)
	}
	if !longTests() {
		return
	}
	code, out, errOut = solcatDB(db, "build", puzzle)
	if code != 0 || !strings.Contains(errOut, "resuming from") || !strings.Contains(out, solutions) {
		t.Errorf("the build after the kill: exit %d, %q %q", code, out, errOut)
	}
	if _, err := os.Stat(db + ".lock"); err == nil {
		t.Error("the finished build left its lock file")
	}
}

// TestSQLStreams runs queries in a real process: a result of 500,000 rows
// (2 million with SOLCAT_LONG=1; half as many in JSON) keeps memory flat,
// under 40 MiB (the process takes about 28 MiB however many rows; text and
// CSV output of the 500,000 rows is 17-18 MB, JSON of 250,000 23 MB, so a
// writer that held its output would go over the bound), and Ctrl-C stops it
// at once, while it reads and while it writes.
func TestSQLStreams(t *testing.T) {
	bin := binary(t)
	rows := 500_000
	if longTests() {
		rows = 2_000_000
	}
	big := fmt.Sprintf("SELECT a.id, b.slot, a.canonical FROM classes_queens_12_raw a, block_slots b LIMIT %d", rows)
	for _, format := range []string{"text", "json", "csv"} {
		q := big
		if format == "json" {
			// Half the rows: 23 MB of JSON already passes the bound if held.
			q = fmt.Sprintf("SELECT a.id, b.slot, a.canonical FROM classes_queens_12_raw a, block_slots b LIMIT %d", rows/2)
		}
		cmd := exec.Command(bin, "--db", catalogPath, "sql", q, "--format", format)
		var n int64
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The process's own peak, sampled: the rusage of a child counts
		// the memory of the test process it was forked from.
		peak := make(chan int)
		go func() {
			most := 0
			for {
				status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
				if err != nil {
					peak <- most
					return
				}
				for _, line := range strings.Split(string(status), "\n") {
					if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
						v, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(kb), "kB")))
						most = max(most, v)
					}
				}
				time.Sleep(10 * time.Millisecond)
			}
		}()
		n, _ = io.Copy(io.Discard, stdout)
		time.Sleep(20 * time.Millisecond) // a last sample before it is reaped
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
		maxRSS := <-peak // KiB
		t.Logf("%s: %d bytes of output, peak memory %d MiB", format, n, maxRSS/1024)
		if maxRSS > 40<<10 {
			t.Errorf("%s: %d MiB of memory for %d rows", format, maxRSS/1024, rows)
		}
	}
	for _, q := range []string{big, "SELECT count(*) FROM solutions_queens_12 a, solutions_queens_12 b, block_slots c"} {
		cmd := exec.Command(bin, "--db", catalogPath, "sql", q)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		stdout, _ := cmd.StdoutPipe()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		r := bufio.NewReader(stdout)
		if q == big {
			r.ReadString('\n') // it is writing
		} else {
			time.Sleep(300 * time.Millisecond) // it is reading
		}
		sent := time.Now()
		cmd.Process.Signal(syscall.SIGINT)
		go io.Copy(io.Discard, r)
		cmd.Wait()
		if took := time.Since(sent); took > time.Second || cmd.ProcessState.ExitCode() != 1 || !strings.HasPrefix(stderr.String(), "solcat: interrupted after ") {
			t.Errorf("Ctrl-C: stopped after %v, exit %d, %q", took, cmd.ProcessState.ExitCode(), stderr.String())
		}
	}
}

// TestVerifyGoesOnPastDamage overwrites a page of one puzzle with random
// bytes: verify reports the damage of that puzzle and checks the others,
// in text and in JSON.
func TestVerifyGoesOnPastDamage(t *testing.T) {
	db := filepath.Join(t.TempDir(), "cat.db")
	if code, _, errOut := solcatDB(db, "build", "queens:8", "magic:3", "queens:10"); code != 0 {
		t.Fatal(errOut)
	}
	_, out, _ := solcatDB(db, "sql", "SELECT rootpage FROM sqlite_master WHERE name = 'solution_blocks_queens_10'", "--format", "csv")
	page, err := strconv.Atoi(strings.TrimSpace(strings.Split(out, "\n")[1]))
	if err != nil {
		t.Fatal(out)
	}
	f, err := os.OpenFile(db, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	noise := make([]byte, 4096)
	for i := range noise {
		noise[i] = byte(i*7919 + 13)
	}
	f.WriteAt(noise, int64(page-1)*4096)
	f.Close()
	code, text, errOut := solcatDB(db, "verify")
	if code != 1 || !strings.Contains(text, "catalog: SQLite integrity check: ") || strings.Contains(text, "integrity check: ok") ||
		!strings.Contains(text, "queens:10: cannot be read to the end") || !strings.Contains(text, "queens:8: ok") || !strings.Contains(text, "magic:3: ok") {
		t.Errorf("verify: exit %d\n%s%s", code, text, errOut)
	}
	if !strings.Contains(errOut, "build its puzzles into a new catalog: 'solcat --db NEW.db build magic:3 queens:8 queens:10'") {
		t.Errorf("verify's advice: %q", errOut)
	}
	code, js, _ := solcatDB(db, "verify", "--format", "json")
	var report struct {
		Puzzles []struct {
			Puzzle string
			OK     bool
		}
	}
	if err := json.Unmarshal([]byte(js), &report); err != nil || code != 1 || len(report.Puzzles) != 3 {
		t.Fatalf("verify --format json: exit %d, %v\n%s", code, err, js)
	}
	for _, p := range report.Puzzles {
		if p.OK != (p.Puzzle != "queens:10") {
			t.Errorf("%s: ok %v", p.Puzzle, p.OK)
		}
	}
	if code, _, errOut := solcatDB(db, "count", "queens:10", "--cell", "2,2=1"); code != 1 || !strings.Contains(errOut, "the catalog file is damaged") {
		t.Errorf("a query on the damaged puzzle: exit %d, %q", code, errOut)
	}
	if code, out, _ := solcatDB(db, "count", "queens:8", "--cell", "2,2=1"); code != 0 || out == "" {
		t.Errorf("a query on an undamaged puzzle: exit %d, %q", code, out)
	}
}

// TestQueriesLeaveNoFiles checks that a query leaves the catalog's folder
// as it found it: the log files SQLite makes for a reader are taken away.
func TestQueriesLeaveNoFiles(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "cat.db")
	if code, _, errOut := solcatDB(db, "build", "queens:6"); code != 0 {
		t.Fatal(errOut)
	}
	for _, args := range [][]string{{"count", "queens:6"}, {"info"}, {"verify"}, {"sql", "SELECT 1"}, {"list", "queens:6"}, {"count", "queens:9"}} {
		solcatDB(db, args...)
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("after %v the folder holds %d files", args, len(entries))
		}
	}
}

// TestReadOnlyFileRefused: a catalog file no one may write (mode 0444) is
// not written by a build, even by root, whom the system would let: one
// line, exit 1, and the file's bytes as they were.
func TestReadOnlyFileRefused(t *testing.T) {
	db := filepath.Join(t.TempDir(), "ro.db")
	if code, _, errOut := solcatDB(db, "build", "queens:6"); code != 0 {
		t.Fatal(errOut)
	}
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(db, 0o444); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := solcatDB(db, "build", "queens:5")
	after, _ := os.ReadFile(db)
	if code != 1 || !strings.Contains(errOut, "the file is read-only; make it writable (chmod u+w)") || strings.Count(errOut, "\n") != 1 || !bytes.Equal(before, after) {
		t.Errorf("build into a file of mode 0444: exit %d, %q, file changed %v", code, errOut, !bytes.Equal(before, after))
	}
}
