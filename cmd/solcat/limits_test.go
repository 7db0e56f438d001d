package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// limitCase is a command line TestLimits runs in a real process.
type limitCase struct {
	name string
	args []string // {d} is the case's folder; --db {d}/cat.db unless the args name one
	code int
	// stderr is all of stderr: the exact text, or a regular expression
	// when it begins with ^ ({d} is the folder in either).
	stderr string
	out    *outWant // nil: nothing on stdout
	sigint bool     // stdout is a pipe nobody reads; Ctrl-C once it is full
	peakMB int      // if not 0, the most memory the process may take
	// longOnly: run with SOLCAT_LONG=1 only (a limit another case checks
	// in another format).
	longOnly bool
}

// outWant is what stdout holds: its size, how it begins and ends.
type outWant struct {
	size       int64
	head, tail string
}

// TestLimits runs solcat on command lines that push at its limits: values
// too large to print and values of the largest size, in every format, with
// the process's peak memory measured; Ctrl-C while standard output is a
// pipe nobody reads; bad command lines that must exit 2; and arguments of
// 120,000 characters or with control characters, which an error line must
// repeat cut short and escaped. Each runs in a folder holding a catalog and
// its neighbours, every file of which must be the same afterwards. The
// cases of memory and Ctrl-C run in a process of their own; the others,
// which check an exit status, stderr and stdout, run in this process (as
// TestBadInputChangesNothing's do), each in a process of its own with
// SOLCAT_LONG=1. (SOLCAT_TEST_BINARY=path runs every case against another
// solcat binary.)
func TestLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("runs solcat some 60 times, printing values of 16 MB")
	}
	bin := os.Getenv("SOLCAT_TEST_BINARY") // as in TestBadInputChangesNothing
	inProcess := bin == "" && !longTests()
	if bin == "" {
		bin = binary(t)
	}
	const mb = 16_000_000 // the largest value sql prints
	long := strings.Repeat("a", 120_000)
	cut := `a{32,200}…` // what an error line keeps of long
	tooLarge := "solcat: sql: a value larger than 16 MB is not printed; select part of it with substr(), or its length with length()\n"
	cannot := func(p string) string {
		return "solcat: " + p + " is not in the catalog and cannot be built: solcat stores magic squares up to order 5 and queens up to N=19, and counts queens up to N=23; 'solcat estimate " + p + "' estimates its count\n"
	}
	param := func(p string) string {
		return "solcat: sql: not a statement this catalog can run: it has a parameter, " + p + ", and sql binds no values; write the value in its place\n"
	}
	badSQL := func(msg string) string { return "solcat: sql: not a statement this catalog can run: " + msg + "\n" }
	interrupted := `^solcat: interrupted after [0-9]+ rows\n$`
	endless := "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT x, 'row ' || x AS label FROM r"
	jsonHead, jsonTail := "[\n  {\n    \"v\": ", "\n  }\n]\n"
	jsonlHead, jsonlTail := `{"v":`, "}\n"
	blob := func(head, sep, tail string) *outWant {
		return &outWant{int64(len(head) + len("[]") + mb + (mb-1)*len(sep) + len(tail)), head + "[0" + sep + "0", "0]" + tail}
	}
	// The largest string: printf keeps a byte of its 16 MB for the NUL
	// that ends it.
	text := func(head, tail string) *outWant {
		return &outWant{int64(len(head) + mb - 1 + len(tail)), head + "xxx", "xxx" + tail}
	}
	c := func(name string, code int, stderr string, args ...string) limitCase {
		return limitCase{name: name, code: code, stderr: stderr, args: args}
	}
	withOut := func(tc limitCase, out *outWant) limitCase { tc.out = out; return tc }
	withPeak := func(tc limitCase, peakMB int) limitCase { tc.peakMB = peakMB; return tc }
	withSigint := func(tc limitCase) limitCase { tc.sigint = true; return tc }
	// longOnly: the same limit in another format, run with SOLCAT_LONG=1.
	longOnly := func(tc limitCase) limitCase { tc.longOnly = true; return tc }
	cases := []limitCase{
		// Values too large to print: refused inside SQLite, before they are made.
		withPeak(c("a 1 GB blob, text", 2, tooLarge, "sql", "SELECT randomblob(1000000000) AS v"), 60),
		longOnly(withPeak(c("a 1 GB blob, json", 2, tooLarge, "sql", "SELECT randomblob(1000000000) AS v", "--format", "json"), 60)),
		longOnly(withPeak(c("a 1 GB blob, jsonl", 2, tooLarge, "sql", "SELECT randomblob(1000000000) AS v", "--format", "jsonl"), 60)),
		longOnly(withPeak(c("a 1 GB blob, csv", 2, tooLarge, "sql", "SELECT randomblob(1000000000) AS v", "--format", "csv"), 60)),
		withPeak(c("a 1 GB string", 2, tooLarge, "sql", "SELECT printf('%.*c', 1000000000, 'x') AS v", "--format", "json"), 60),
		c("one byte over", 2, tooLarge, "sql", "SELECT zeroblob(16000001)"),
		withPeak(c("an aggregate over the limit", 2, tooLarge, "sql",
			"WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r LIMIT 2000000) SELECT group_concat(printf('%09d', x)) FROM r"), 60),
		// Values of the largest size: printed, within a small multiple of their size.
		withPeak(withOut(c("a 16 MB blob, text", 0, "", "sql", "SELECT zeroblob(16000000) AS v"), &outWant{2 + 2*mb, "v\n0 0", "0 0\n"}), 100),
		withPeak(withOut(c("a 16 MB blob, json", 0, "", "sql", "SELECT zeroblob(16000000) AS v", "--format", "json"), blob(jsonHead, ", ", jsonTail)), 100),
		longOnly(withPeak(withOut(c("a 16 MB blob, jsonl", 0, "", "sql", "SELECT zeroblob(16000000) AS v", "--format", "jsonl"), blob(jsonlHead, ",", jsonlTail)), 100)),
		longOnly(withPeak(withOut(c("a 16 MB blob, csv", 0, "", "sql", "SELECT zeroblob(16000000) AS v", "--format", "csv"), &outWant{2 + 2*mb, "v\n0 0", "0 0\n"}), 100)),
		longOnly(withPeak(withOut(c("a 16 MB string, text", 0, "", "sql", "SELECT printf('%.*c', 15999999, 'x') AS v"), text("v\n", "\n")), 100)),
		longOnly(withPeak(withOut(c("a 16 MB string, json", 0, "", "sql", "SELECT printf('%.*c', 15999999, 'x') AS v", "--format", "json"), text(jsonHead+`"`, `"`+jsonTail)), 100)),
		withPeak(withOut(c("a 16 MB string, jsonl", 0, "", "sql", "SELECT printf('%.*c', 15999999, 'x') AS v", "--format", "jsonl"), text(jsonlHead+`"`, `"`+jsonlTail)), 100),
		withPeak(withOut(c("a 16 MB string, csv", 0, "", "sql", "SELECT printf('%.*c', 15999999, 'x') AS v", "--format", "csv"), text("v\n", "\n")), 100),
		withOut(c("a catalog's own blocks", 0, "", "sql", "SELECT * FROM solution_blocks_queens_8", "--format", "csv"),
			&outWant{-1, "first_id,cells,class_syms\n1,0 0 0 0 1 1 1 1 1 1 1 1 2 2 ", "\n"}),
		// Ctrl-C while a write blocks: the process ends within a second.
		withSigint(c("Ctrl-C, blocked, text", 1, interrupted, "sql", endless)),
		withSigint(c("Ctrl-C, blocked, json", 1, interrupted, "sql", endless, "--format", "json")),
		longOnly(withSigint(c("Ctrl-C, blocked, jsonl", 1, interrupted, "sql", endless, "--format", "jsonl"))),
		longOnly(withSigint(c("Ctrl-C, blocked, csv", 1, interrupted, "sql", endless, "--format", "csv"))),
		withSigint(c("Ctrl-C, blocked in a large value", 1, interrupted, "sql",
			"WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT zeroblob(4000000) FROM r", "--format", "json")),
		longOnly(withSigint(c("Ctrl-C, blocked, list", 1, "solcat: interrupted\n", "list", "magic:4"))),
		longOnly(withSigint(c("Ctrl-C, blocked, classes", 1, "solcat: interrupted\n", "classes", "magic:4", "--format", "csv"))),
		withSigint(c("Ctrl-C, blocked, export", 1, "solcat: interrupted; the rows before it were written\n", "export", "magic:4", "--format", "jsonl")),
		// Bad command lines exit 2.
		c("magic 6", 2, cannot("magic:6"), "count", "magic:6"),
		c("queens 32", 2, "solcat: queens:32 is too large to count whole; give --cell or --pattern to count under them, or estimate it with 'solcat estimate queens:32'\n", "count", "queens:32"),
		c("list queens 24", 2, cannot("queens:24"), "list", "queens:24"),
		c("classes magic 7", 2, cannot("magic:7"), "classes", "magic:7"),
		c("show magic 6", 2, cannot("magic:6"), "show", "magic:6", "1"),
		c("export queens 25", 2, cannot("queens:25"), "export", "queens:25"),
		c("stats queens 32", 2, cannot("queens:32"), "stats", "queens:32", "--by", "orbit"),
		c("verify magic 6", 2, cannot("magic:6"), "verify", "magic:6"),
		c("help of no command", 2, "solcat: unexpected argument nosuch; see 'solcat --help'\n", "help", "nosuch"),
		c("a parameter", 2, param("?"), "sql", "SELECT ?"),
		c("a numbered parameter", 2, param("?7"), "sql", "SELECT ?7"),
		c("a named parameter", 2, param(":a"), "sql", "SELECT :a"),
		c("an @ parameter", 2, param("@a"), "sql", "SELECT 1 WHERE 1 = @a"),
		c("a $ parameter", 2, param("$a"), "sql", "SELECT $a"),
		c("arguments to a pragma function", 2, badSQL("too many arguments on pragma_user_version() - max 0"), "sql", "SELECT * FROM pragma_user_version(7)"),
		c("no tables", 2, badSQL("no tables specified"), "sql", "SELECT *"),
		c("malformed JSON", 2, badSQL("malformed JSON"), "sql", "SELECT json('{')"),
		c("ORDER BY out of range", 2, badSQL("1st ORDER BY term out of range - should be between 1 and 1"), "sql", "SELECT 1 ORDER BY 2"),
		c("an integer overflow", 2, badSQL("integer overflow"), "sql", "SELECT abs(-9223372036854775808)"),
		c("a port out of range", 2, "solcat: --addr 127.0.0.1:99999: the port is a number from 0 to 65535; write HOST:PORT, for example 127.0.0.1:8765\n", "serve", "--addr", "127.0.0.1:99999"),
		// Not a bad command line: a puzzle that is not built yet.
		c("not built", 1, "solcat: queens:15 is not in the catalog {d}/cat.db; add it with 'solcat build queens:15'\n", "count", "queens:15"),
		// Parameters' marks inside strings and names are none.
		withOut(c("marks in strings and names", 0, "", "sql", "SELECT '?' AS q, ':a @b' AS [c?], a$b FROM (SELECT 1 AS a$b)", "--format", "csv"),
			&outWant{int64(len("q,c?,a$b\n?,:a @b,1\n")), "q,c?,a$b\n?,:a @b,1\n", "\n"}),
		// Long arguments: an error line repeats at most about 200 characters of them.
		c("long puzzle size", 2, `^solcat: bad puzzle notation "queens:`+cut+`": size "`+cut+`" is not a whole number; write for example queens:8\n$`, "count", "queens:"+long),
		c("long puzzle kind", 2, `^solcat: bad puzzle notation "`+cut+`": unknown puzzle kind "`+cut+`"; use magic or queens\n$`, "count", long+":8"),
		c("long column", 2, `^solcat: sql: not a statement this catalog can run: no such column: `+cut+`\n$`, "sql", "SELECT "+long),
		c("long statement", 2, `^solcat: sql: not a statement this catalog can run: "`+cut+`" is not valid SQL: a statement begins with SELECT, WITH, VALUES, EXPLAIN or PRAGMA\n$`, "sql", long),
		c("long string", 2, `^solcat: sql: not a statement this catalog can run: not valid SQL: unrecognized token: "'`+cut+`"\n$`, "sql", "SELECT '"+long),
		c("long table", 2, `^solcat: sql: not a statement this catalog can run: no such table: `+cut+`; list the tables with: solcat sql "SELECT name, type FROM sqlite_master ORDER BY name"\n$`, "sql", "SELECT * FROM "+long),
		c("long flag", 2, `^solcat: unknown flag --`+cut+`; see 'solcat --help'\n$`, "--"+long),
		c("long argument", 2, `^solcat: unexpected argument `+cut+`; see 'solcat count --help'\n$`, "count", "queens:8", long),
		c("long format", 2, `^solcat: --format `+cut+` does not apply here; use one of: text, json, jsonl, csv\n$`, "count", "queens:8", "--format", long),
		c("long cell", 2, `^solcat: --cell "`+cut+`": write ROW,COL=VALUE, for example 1,1=16\n$`, "count", "queens:8", "--cell="+long),
		c("long catalog name", 1, `^solcat: cannot read catalog [^ ]{32,200}…: open [^ ]{32,200}…: file name too long\n$`, "--db", "{d}/"+long, "count", "queens:8"),
		c("long statement with line breaks and escapes", 2, `^solcat: sql: not a statement this catalog can run: not valid SQL: unrecognized token: "'a\\x1b `+cut+`"\n$`,
			"sql", "SELECT\n\t'a\x1b\t"+long),
		// Control characters are escaped.
		c("escape in a puzzle", 2, `solcat: bad puzzle notation "queens:8\x1b[31m": size "8\x1b[31m" is not a whole number; write for example queens:8`+"\n", "count", "queens:8\x1b[31m"),
		c("escape in SQL", 2, badSQL(`not valid SQL: unrecognized token: "\x1b"`), "sql", "SELECT \x1b[2J"),
		c("escape in a format", 2, `solcat: --format \x1b]0;title\a does not apply here; use one of: text, json, jsonl, csv`+"\n", "count", "queens:8", "--format", "\x1b]0;title\x07"),
		c("escape as a command", 2, `solcat: unexpected argument \x1b[31m; see 'solcat --help'`+"\n", "\x1b[31m"),
		c("a right-to-left mark", 2, `solcat: bad puzzle notation "\u202equeens:8": unknown puzzle kind "\u202equeens"; use magic or queens`+"\n", "count", "\u202equeens:8"),
		c("a byte that is not UTF-8", 2, "solcat: --cell \"1,1=\ufffd\": the value \"\ufffd\" is not a whole number; write ROW,COL=VALUE\n", "count", "queens:8", "--cell", "1,1=\xff"),
		c("a byte that is not UTF-8 in SQL", 2, badSQL("no such column: \ufffd"), "sql", "SELECT \xff"),
	}
	if len(cases) < 40 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.longOnly && !longTests() {
				t.Skip("the same limit in another format; set SOLCAT_LONG=1")
			}
			dir := caseFolder(t)
			var args []string
			if !strings.HasPrefix(tc.args[0], "--db") {
				args = append(args, "--db", "{d}/cat.db")
			}
			args = append(args, tc.args...)
			for i, a := range args {
				args[i] = strings.ReplaceAll(a, "{d}", dir)
			}
			before := folderState(t, dir)
			var got limited
			if inProcess && !tc.sigint && tc.peakMB == 0 {
				got = runHere(args)
			} else {
				got = runLimited(t, bin, args, tc.sigint)
			}
			if got.code != tc.code {
				t.Errorf("exit %d, want %d (stderr %q)", got.code, tc.code, clipped(got.stderr))
			}
			want := strings.ReplaceAll(tc.stderr, "{d}", dir)
			if strings.HasPrefix(tc.stderr, "^") {
				want = strings.ReplaceAll(tc.stderr, "{d}", regexp.QuoteMeta(dir))
				if !regexp.MustCompile(want).MatchString(got.stderr) {
					t.Errorf("stderr %q does not match %q", clipped(got.stderr), want)
				}
			} else if got.stderr != want {
				t.Errorf("stderr %q, want %q", clipped(got.stderr), want)
			}
			if len(got.stderr) > 250 {
				t.Errorf("stderr is %d bytes long", len(got.stderr))
			}
			for line, i := strings.TrimSuffix(got.stderr, "\n"), 0; i < len(line); {
				r, size := utf8.DecodeRuneInString(line[i:])
				if r == utf8.RuneError && size == 1 || r != ' ' && !strconv.IsPrint(r) {
					t.Errorf("stderr has %q at byte %d: %q", line[i:i+size], i, got.stderr)
					break
				}
				i += size
			}
			switch {
			case tc.out == nil && got.size != 0:
				t.Errorf("stdout %q, want nothing", got.head)
			case tc.out != nil:
				if tc.out.size >= 0 && got.size != tc.out.size {
					t.Errorf("stdout is %d bytes, want %d", got.size, tc.out.size)
				}
				if !strings.HasPrefix(got.head, tc.out.head) || !strings.HasSuffix(got.tail, tc.out.tail) {
					t.Errorf("stdout begins %q and ends %q, want %q ... %q", got.head, got.tail, tc.out.head, tc.out.tail)
				}
			}
			if tc.sigint {
				t.Logf("stopped %v after Ctrl-C", got.stopped)
				if got.stopped > time.Second {
					t.Errorf("stopped %v after Ctrl-C, want within a second", got.stopped)
				}
			}
			if tc.peakMB > 0 {
				t.Logf("peak memory %d MB", got.peakKB/1000)
				switch {
				case got.peakKB == 0 && got.ran < 250*time.Millisecond:
					// Refused at once, between two samples: too soon to
					// have grown.
					t.Logf("ended in %v, before a sample of its memory", got.ran)
				case got.peakKB == 0:
					t.Error("no peak memory measured")
				case got.peakKB > tc.peakMB*1000:
					t.Errorf("peak memory %d MB, want at most %d MB", got.peakKB/1000, tc.peakMB)
				}
			}
			checkFiles(t, before, folderState(t, dir), nil)
		})
	}
}

// limited is what a process of TestLimits did.
type limited struct {
	code       int
	stderr     string
	size       int64  // bytes on stdout
	head, tail string // the first and last bytes of stdout
	stopped    time.Duration
	ran        time.Duration // from start to end
	peakKB     int
}

// runLimited runs bin with args and measures its peak memory, from
// /proc's VmHWM: the rusage of a child counts the memory of the test
// process it was started from. With sigint, its stdout is a pipe that is
// never read: once the pipe is full, Ctrl-C, and stopped is how long the
// process took to end.
func runLimited(t *testing.T, bin string, args []string, sigint bool) limited {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	var got limited
	out := &edges{size: &got.size}
	if sigint {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close() // never read
		// As small as a pipe can be, so that the small puzzles of the
		// folder fill it too.
		unix.FcntlInt(w.Fd(), unix.F_SETPIPE_SZ, 4096)
		cmd.Stdout = w
	} else {
		cmd.Stdout = out
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if w, ok := cmd.Stdout.(*os.File); ok {
		w.Close() // the child's now
	}
	peak := make(chan int, 1)
	go func() { peak <- sampleHWM(cmd.Process.Pid) }()
	if sigint {
		// Ctrl-C once a thread of the process waits in the kernel to write
		// into the full pipe.
		for deadline := time.Now().Add(10 * time.Second); !writeBlocked(cmd.Process.Pid); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatal("the process never waited to write")
			}
		}
		cmd.Process.Signal(syscall.SIGINT)
	}
	sent := time.Now()
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Errorf("%v did not end", clippedArgs(args))
	}
	got.stopped, got.ran = time.Since(sent), time.Since(start)
	got.code = cmd.ProcessState.ExitCode()
	got.stderr = stderr.String()
	got.head, got.tail = string(out.head), string(out.tail)
	got.peakKB = <-peak
	return got
}

// runHere runs the CLI in this process with args, as main does, and
// keeps what runLimited keeps but the times and the memory.
func runHere(args []string) limited {
	var got limited
	out := &edges{size: &got.size}
	var stderr bytes.Buffer
	got.code = run(context.Background(), args, noStdin(), out, &stderr)
	got.stderr = stderr.String()
	got.head, got.tail = string(out.head), string(out.tail)
	return got
}

// edges keeps how many bytes are written to it, and the first and last.
type edges struct {
	size       *int64
	head, tail []byte
}

func (e *edges) Write(p []byte) (int, error) {
	*e.size += int64(len(p))
	if n := 200 - len(e.head); n > 0 {
		e.head = append(e.head, p[:min(n, len(p))]...)
	}
	e.tail = append(e.tail, p[max(len(p)-200, 0):]...)
	e.tail = e.tail[max(len(e.tail)-200, 0):]
	return len(p), nil
}

// writeBlocked reports whether a thread of the process waits in the
// kernel to write into a pipe.
func writeBlocked(pid int) bool {
	chans, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/wchan", pid))
	for _, name := range chans {
		if wchan, _ := os.ReadFile(name); strings.Contains(string(wchan), "pipe_write") {
			return true
		}
	}
	return false
}

// sampleHWM reads the process's peak resident memory (VmHWM, in kB) until
// it ends, every few milliseconds; 0 where there is no /proc.
func sampleHWM(pid int) int {
	most := 0
	for {
		status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			return most
		}
		line := regexp.MustCompile(`VmHWM:\s*([0-9]+) kB`).FindSubmatch(status)
		if line == nil { // exiting: its memory is gone
			return most
		}
		kb, _ := strconv.Atoi(string(line[1]))
		most = max(most, kb)
		time.Sleep(2 * time.Millisecond)
	}
}

func clipped(s string) string {
	if len(s) > 600 {
		return s[:300] + "..." + s[len(s)-300:]
	}
	return s
}

func clippedArgs(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = clipped(a)
	}
	return out
}

// TestInterruptWhileOutputBlocks runs queries in-process whose standard
// output is a pipe nobody reads, and cancels them as Ctrl-C does: each
// returns within a second, as interrupted.
func TestInterruptWhileOutputBlocks(t *testing.T) {
	endless := "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT x FROM r"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sql", endless}, "solcat: interrupted after "},
		{[]string{"sql", endless, "--format", "json"}, "solcat: interrupted after "},
		{[]string{"list", "queens:12"}, "solcat: interrupted\n"},
		{[]string{"export", "queens:12", "--format", "jsonl"}, "solcat: interrupted; the rows before it were written\n"},
	} {
		t.Run(strings.Join(tc.args[:1+len(tc.args)%2], " "), func(t *testing.T) {
			r, w := io.Pipe()
			defer r.Close()
			ctx, cancel := context.WithCancel(context.Background())
			var stderr strings.Builder
			done := make(chan int)
			go func() { done <- run(ctx, append([]string{"--db", catalogPath}, tc.args...), noStdin(), w, &stderr) }()
			// One byte read: the query is writing its output, and blocks
			// again on what follows.
			if _, err := r.Read(make([]byte, 1)); err != nil {
				t.Fatal(err)
			}
			time.Sleep(50 * time.Millisecond)
			cancel()
			select {
			case code := <-done:
				if code != 1 || !strings.HasPrefix(stderr.String(), tc.want) {
					t.Errorf("exit %d, %q; want 1 and %q", code, stderr.String(), tc.want)
				}
			case <-time.After(time.Second):
				t.Fatal("still running a second after the interrupt")
			}
		})
	}
}
