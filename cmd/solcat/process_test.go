package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"solcat/catalog"
)

var (
	binaryOnce sync.Once
	binaryDir  string // the folder made for it, removed by TestMain
	binaryPath string
	binaryErr  error
)

// The version and revision the test binary is stamped with, as a release
// build is (TestOneVersionEverywhere).
const stampedVersion, stampedRevision = "v9.8.7", "0123456789abcdef0123456789abcdef01234567"

// binary builds solcat once, for tests that need a real process to limit
// or kill, stamped as a release is.
//
// 'go run' builds it: it keeps the linked binary (without symbols or
// DWARF) in the build cache, where 'go build' links anew each time, seconds
// of processor time; cp, run as its -exec, copies it out.
func binary(t *testing.T) string {
	t.Helper()
	binaryOnce.Do(func() {
		dir, err := os.MkdirTemp("", "solcat-bin-")
		if err != nil {
			binaryErr = err
			return
		}
		binaryDir = dir
		os.Chmod(dir, 0o755) // other users run it in TestReadOnlyFolder
		binaryPath = filepath.Join(dir, "solcat")
		ldflags := "-X solcat/cmd/solcat/release.stampVersion=" + stampedVersion + " -X solcat/cmd/solcat/release.stampRevision=" + stampedRevision
		out, err := exec.Command("go", "run", "-ldflags", ldflags, "-exec", "cp", ".", binaryPath).CombinedOutput()
		if err != nil {
			binaryErr = err
			binaryPath = string(out)
		}
	})
	if binaryErr != nil {
		t.Fatalf("building solcat: %v %s", binaryErr, binaryPath)
	}
	return binaryPath
}

// TestFullDiskKeepsCatalog runs a build under a file size limit that it
// exceeds: the puzzles built before stay intact, the units saved before the
// disk filled are kept, and the same command with room to spare finishes
// the build with the same content as an uninterrupted one.
func TestFullDiskKeepsCatalog(t *testing.T) {
	t.Parallel() // processes and files of its own (see TestMain)
	bin := binary(t)
	db := filepath.Join(t.TempDir(), "cat.db")
	if code, _, errOut := solcatDB(db, "build", "queens:1-10"); code != 0 {
		t.Fatal(errOut)
	}
	_, before, _ := solcatDB(db, "sql", "SELECT name, content_hash FROM puzzles ORDER BY name")
	cmd := exec.Command("sh", "-c", `ulimit -f 3000; exec "$0" --db "$1" build queens:14`, bin, db)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "of queens:14 is saved") || !strings.Contains(string(out), "free disk space") || strings.Count(string(out), "\n") != 1 {
		t.Fatalf("build over the size limit: %v, %q", err, out)
	}
	if _, after, _ := solcatDB(db, "sql", "SELECT name, content_hash FROM puzzles ORDER BY name"); after != before {
		t.Errorf("the puzzles changed:\n%s\nwas\n%s", after, before)
	}
	if code, out, errOut := solcatDB(db, "verify"); code != 0 || strings.Contains(out, "queens:14") {
		t.Errorf("verify after the failed build: exit %d, %q %s", code, out, errOut)
	}
	if code, _, errOut := solcatDB(db, "count", "queens:14"); code != 1 || !strings.Contains(errOut, "queens:14 is unfinished: its build stopped with") {
		t.Errorf("count during the unfinished build: exit %d, %q", code, errOut)
	}
	if code, out, errOut := solcatDB(db, "info"); code != 0 || !strings.Contains(out, "queens:14 is unfinished: its build stopped with") || !strings.Contains(out, "'solcat build queens:14' resumes it") {
		t.Errorf("info during the unfinished build: exit %d, %q %s", code, out, errOut)
	}
	if code, out, errOut := solcatDB(db, "info", "--format", "jsonl"); code != 0 || !strings.Contains(out, `{"puzzle":"queens:14","storage":"building","running":false,`) {
		t.Errorf("info --format jsonl during the unfinished build: exit %d, %q %s", code, out, errOut)
	}
	if code, _, errOut := solcatDB(db, "build", "queens:14"); code != 0 || !strings.Contains(errOut, "resuming") {
		t.Fatalf("build with room: exit %d, %q", code, errOut)
	}
	if a, b := contentHash(t, db, "queens:14"), wholeContent(t, "queens:14"); a != b {
		t.Errorf("resumed after a full disk: content %s, uninterrupted build %s", a, b)
	}
}

// killSize is the queens size TestStoredBuildSurvivesKills builds; CI uses
// the default, 'go test ./cmd/solcat -run Kills -killsize 16' a longer run.
var killSize = flag.Int("killsize", 13, "queens size for TestStoredBuildSurvivesKills")

// TestStoredBuildSurvivesKills kills a stored build with SIGKILL at random
// moments, runs it again after each kill, and checks that the finished
// catalog has exactly the content of an uninterrupted build: no row lost,
// none duplicated.
func TestStoredBuildSurvivesKills(t *testing.T) {
	t.Parallel() // processes and files of its own (see TestMain)
	survivesKills(t, fmt.Sprintf("queens:%d", *killSize))
}

// TestClassesBuildSurvivesKills does the same to a build of queens:15
// (queens:16 with SOLCAT_LONG=1) as its classes only, the layout of
// queens:18 and 19.
func TestClassesBuildSurvivesKills(t *testing.T) {
	t.Parallel() // processes and files of its own (see TestMain)
	puzzle := "queens:15"
	if longTests() {
		puzzle = "queens:16"
	}
	survivesKills(t, puzzle, "--as-classes")
}

// survivesKills builds puzzle (with the build flags given), kills the
// build with SIGKILL at random moments, runs it again after each kill,
// and compares the result with an uninterrupted build.
func survivesKills(t *testing.T, puzzle string, flags ...string) {
	bin := binary(t)
	ref := filepath.Join(t.TempDir(), "ref.db")
	start := time.Now()
	if out, err := exec.Command(bin, append([]string{"--db", ref, "build", puzzle}, flags...)...).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted build: %v %s", err, out)
	}
	whole := time.Since(start)
	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	db := filepath.Join(t.TempDir(), "cat.db")
	if code, _, errOut := solcatDB(db, "build", "queens:8"); code != 0 {
		t.Fatal(errOut)
	}
	saved := func() int64 { return savedRows(db, puzzle) }
	// Each kill comes at a random moment after the build has saved a unit
	// more than before the last kill, so every run resumes from further on.
	kills, last := 0, int64(0)
	for finished := false; !finished; {
		cmd := exec.Command(bin, append([]string{"--db", db, "build", puzzle}, flags...)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		killed := false
		for !finished && !killed {
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("build after %d kills: %v %s", kills, err, stderr.String())
				}
				finished = true
			case <-time.After(5 * time.Millisecond):
				if kills < 6 && saved() > last {
					// A finished puzzle answers while the build writes (WAL).
					if code, out, errOut := solcatDB(db, "count", "queens:8"); code != 0 || out != "92\n" {
						t.Errorf("queens:8 during the build: exit %d, %q %s", code, out, errOut)
					}
					time.Sleep(time.Duration(rng.Int64N(int64(whole / 4))))
					cmd.Process.Signal(syscall.SIGKILL)
					<-done
					killed = true
				}
			}
		}
		if killed {
			kills++
			last = saved()
			t.Logf("kill %d: %d rows saved", kills, last)
			code, _, errOut := solcatDB(db, "count", puzzle)
			switch {
			case code == 0 && last == 0:
				finished = true // the kill came just after the build finished
			case code != 1 || !strings.Contains(errOut, "is unfinished"):
				t.Errorf("count after kill %d: exit %d, %q", kills, code, errOut)
			}
			if code, _, errOut := solcatDB(db, "count", "queens:8"); code != 0 {
				t.Fatalf("queens:8 after a kill: %s", errOut)
			}
		}
	}
	t.Logf("seed %d, %d kills", seed, kills)
	if a, b := contentHash(t, db, puzzle), contentHash(t, ref, puzzle); a != b {
		t.Errorf("content after %d kills %s, uninterrupted build %s (seed %d)", kills, a, b, seed)
	}
	if code, out, errOut := solcatDB(db, "verify"); code != 0 {
		t.Errorf("verify after %d kills: %s %s", kills, out, errOut)
	}
	_, left, _ := solcatDB(db, "sql", "SELECT count(*) AS n FROM sqlite_master WHERE name LIKE '%building%' AND name != 'builds'", "--format", "csv")
	if left != "n\n0\n" {
		t.Errorf("staging tables left: %q", left)
	}
}

// savedRows is how many rows (classes and solutions) an unfinished build
// of puzzle has saved in db.
func savedRows(db, puzzle string) int64 {
	var rows int64
	if cat, err := catalog.Open(context.Background(), db); err == nil {
		if b, ok, _ := cat.Work().Building(context.Background(), puzzle); ok {
			rows = b.ClassesDone + b.SolutionsDone
		}
		cat.Close()
	}
	return rows
}

// TestStoredBuildKilledAgainAndAgain kills a stored build of queens:14 with
// SIGKILL a short while after every start: a third of the time an
// uninterrupted build takes on the machine as it is, at least 0.25 s (with
// SOLCAT_LONG=1, queens:16 every 5 s, or every eighth of its uninterrupted
// time on a busier machine). Every run must save more than the runs before
// it, but for two in a row at most (a machine shared with other work can
// hold a process up for longer than a fraction of a second: after a run
// that saved nothing the next is let run half as long again, up to half
// the uninterrupted time), and the build
// must end with the content of an uninterrupted one. A run that has to
// read, search or sort again much of what earlier runs saved before it
// commits a unit would get nowhere once that takes longer than the
// interval, run after run. Not parallel: it times runs against a bound.
func TestStoredBuildKilledAgainAndAgain(t *testing.T) {
	puzzle, share, least := "queens:14", 3, 250*time.Millisecond
	if longTests() {
		puzzle, share, least = "queens:16", 8, 5*time.Second
	}
	bin := binary(t)
	build := func(db string) *exec.Cmd { return exec.Command(bin, "--db", db, "build", puzzle, "--workers", "2") }
	ref := filepath.Join(t.TempDir(), "ref.db")
	start := time.Now()
	if out, err := build(ref).CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted build: %v %s", err, out)
	}
	whole := time.Since(start)
	every := max(least, whole/time.Duration(share))
	db := filepath.Join(t.TempDir(), "cat.db")
	var last int64
	idle := 0 // runs in a row that saved nothing more
	for run := 1; ; run++ {
		cmd := build(db)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		kill := time.AfterFunc(every, func() { cmd.Process.Signal(syscall.SIGKILL) })
		err := cmd.Wait()
		kill.Stop()
		if err == nil {
			t.Logf("%s killed every %v: finished in run %d", puzzle, every, run)
			break
		}
		if status, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || status.Signal() != syscall.SIGKILL {
			t.Fatalf("run %d: %v %s", run, err, stderr.String())
		}
		saved := savedRows(db, puzzle)
		if code, _, _ := solcatDB(db, "count", puzzle); saved == 0 && code == 0 {
			t.Logf("%s killed every %v: finished in run %d (killed as it closed the catalog)", puzzle, every, run)
			break
		}
		if saved > last {
			last, idle = saved, 0
			continue
		}
		load, _ := os.ReadFile("/proc/loadavg")
		t.Logf("run %d, killed after %v, saved nothing more than the %d rows of the runs before it (load %s)", run, every, last, strings.TrimSpace(string(load)))
		if idle++; idle == 3 {
			t.Fatalf("%d runs in a row saved nothing", idle)
		}
		// The machine may have grown busier since the uninterrupted build
		// was timed: the next run gets half as long again, up to half that
		// build's time.
		every = min(every*3/2, max(least, whole/2))
	}
	if a, b := contentHash(t, db, puzzle), contentHash(t, ref, puzzle); a != b {
		t.Errorf("content after the kills %s, uninterrupted build %s", a, b)
	}
	if code, out, errOut := solcatDB(db, "verify", puzzle); code != 0 {
		t.Errorf("verify after the kills: %s %s", out, errOut)
	}
	_, left, _ := solcatDB(db, "sql", "SELECT count(*) AS n FROM sqlite_master WHERE name LIKE '%building%'", "--format", "csv")
	if left != "n\n0\n" {
		t.Errorf("staging tables left: %q", left)
	}
}

func contentHash(t *testing.T, db, puzzle string) string {
	t.Helper()
	_, out, errOut := solcatDB(db, "sql", "SELECT content_hash FROM puzzles WHERE name = '"+puzzle+"'", "--format", "csv")
	if !strings.HasPrefix(out, "content_hash\n") || len(out) < 64 {
		t.Fatalf("no content hash for %s: %q %s", puzzle, out, errOut)
	}
	return out
}

// TestCountOnlySurvivesKill kills a count-only build with SIGKILL once some
// units are saved, runs it again and expects it to resume and finish with
// the published numbers.
func TestCountOnlySurvivesKill(t *testing.T) {
	t.Parallel() // processes and files of its own (see TestMain)
	bin := binary(t)
	db := filepath.Join(t.TempDir(), "cat.db")
	// queens:18, counted in a second or two: queries see its units up to
	// the writer's last checkpoint, a fraction of a second behind (the
	// units are committed a quarter of a second apart).
	cmd := exec.Command(bin, "--db", db, "build", "queens:18", "--count-only")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for saved := 0; saved < 3; {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no units saved within a minute")
		}
		time.Sleep(20 * time.Millisecond)
		if cat, err := catalog.Open(context.Background(), db); err == nil {
			units, _ := cat.Work().DoneUnits(context.Background(), "queens:18")
			saved = len(units)
			cat.Close()
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	code, out, errOut := solcatDB(db, "build", "queens:18", "--count-only")
	if code != 0 || !strings.Contains(errOut, "resuming") || !strings.Contains(out, "666,090,624 solutions, 83,263,591 classes  matches OEIS") {
		t.Errorf("after SIGKILL: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestReadOnlyFolder queries a catalog in a folder the user may not write to
// (as another user when the tests run as root, who ignores permissions), and
// expects a clear refusal, not a crash or a partial file, when asked to build.
func TestReadOnlyFolder(t *testing.T) {
	t.Parallel() // reads the shared catalog, writes files of its own (see TestMain)
	bin := binary(t)
	base := t.TempDir()
	dir := filepath.Join(base, "readonly")
	os.Mkdir(dir, 0o755)
	data, _ := os.ReadFile(catalogPath)
	db := filepath.Join(dir, "cat.db")
	os.WriteFile(db, data, 0o644)
	os.Chmod(filepath.Dir(base), 0o755) // the test's own temporary folders are private
	os.Chmod(base, 0o755)
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	run := func(args ...string) (string, error) {
		args = append([]string{"--db", db}, args...)
		cmd := exec.Command(bin, args...)
		if os.Geteuid() == 0 {
			// Root may write anywhere: run as the unprivileged user nobody.
			cmd = exec.Command("setpriv", append([]string{"--reuid=65534", "--regid=65534", "--clear-groups", bin}, args...)...)
		}
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	before := fileHash(t, db)
	if out, err := run("count", "queens:8"); err != nil || out != "92\n" {
		t.Errorf("count in a read-only folder: %v, %q", err, out)
	}
	if out, err := run("verify", "queens:8"); err != nil || !strings.Contains(out, "queens:8: ok") {
		t.Errorf("verify in a read-only folder: %v, %q", err, out)
	}
	out, err := run("build", "queens:9", "--force")
	if err == nil || !strings.Contains(out, "is not writable") || strings.Count(out, "\n") != 1 {
		t.Errorf("build in a read-only folder: %v, %q", err, out)
	}
	if fileHash(t, db) != before {
		t.Error("the catalog changed")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the folder now holds %d files, want 1", len(entries))
	}
}

// TestShardsMerge counts queens:13 and queens:12 split in 4 shards, each
// built by its own OS process at the same time, merges them and compares
// with a build in one process; then gives merge a missing, a repeated, a
// foreign and an unfinished shard, and expects a refusal that writes nothing.
func TestShardsMerge(t *testing.T) {
	t.Parallel() // reads the shared catalog, writes files of its own (see TestMain)
	bin := binary(t)
	dir := t.TempDir()
	shard := func(i, k int) string { return filepath.Join(dir, fmt.Sprintf("s%dof%d.db", i, k)) }
	buildShards(t, bin, 4, func(i int) []string {
		return []string{"--db", shard(i, 4), "build", "queens:12-13", "--count-only", "--shard", fmt.Sprintf("%d/4", i), "--workers", "1"}
	})
	merged := filepath.Join(dir, "merged.db")
	code, out, errOut := solcat("merge", merged, shard(1, 4), shard(2, 4), shard(3, 4), shard(4, 4))
	if code != 0 || !strings.Contains(out, "queens:13  73,712 solutions, 9,233 classes  matches OEIS  merged from 4 shards") {
		t.Fatalf("merge: exit %d, %q %s", code, out, errOut)
	}
	single := filepath.Join(dir, "single.db")
	if code, _, errOut := solcatDB(single, "build", "queens:12-13", "--count-only"); code != 0 {
		t.Fatal(errOut)
	}
	query := "SELECT name, storage, solutions, classes, orbit1, orbit2, orbit4, orbit8, verified, search_nodes FROM puzzles ORDER BY name"
	_, a, _ := solcatDB(merged, "sql", query)
	_, b, _ := solcatDB(single, "sql", query)
	if a != b || !strings.Contains(a, "queens:12") {
		t.Errorf("merged:\n%s\none process:\n%s", a, b)
	}
	if code, _, errOut := solcatDB(shard(2, 4), "count", "queens:13"); code != 1 || !strings.Contains(errOut, "holds shard 2/4 of queens:13") {
		t.Errorf("count on a shard: exit %d, %q", code, errOut)
	}
	if _, out, _ := solcatDB(shard(2, 4), "info", "--format", "json"); !strings.Contains(out, `"storage": "shard"`) || !strings.Contains(out, `"of": 4`) {
		t.Errorf("info --format json on a shard: %s", out)
	}

	// Refusals.
	if code, _, errOut := solcatDB(shard(1, 3), "build", "queens:12", "--count-only", "--shard", "1/3"); code != 0 {
		t.Fatal(errOut)
	}
	unfinished := filepath.Join(dir, "unfinished.db")
	data, _ := os.ReadFile(shard(4, 4))
	os.WriteFile(unfinished, data, 0o644)
	execSQL(t, unfinished, "UPDATE shards SET done = 0")
	for _, args := range [][]string{{"info"}, {"count", "queens:12"}} {
		_, out, errOut := solcatDB(unfinished, args...)
		if want := "unfinished: 100% counted (4 of 4 work units); 'solcat build queens:12 --count-only --shard 4/4' resumes it"; !strings.Contains(out+errOut, want) {
			t.Errorf("%s on an unfinished shard: %q %q, want %q", args[0], out, errOut, want)
		}
	}
	for _, tc := range []struct {
		name   string
		shards []string
		want   string
	}{
		{"missing", []string{shard(1, 4), shard(2, 4), shard(4, 4)}, "shard(s) 3 of 4 missing"},
		{"repeated", []string{shard(1, 4), shard(2, 4), shard(3, 4), shard(4, 4), shard(2, 4)}, "shard 2/4 is in both"},
		{"foreign", []string{shard(1, 4), shard(2, 4), shard(3, 4), shard(4, 4), shard(1, 3)}, "holds shard 1 of a split in 3"},
		{"unfinished", []string{shard(1, 4), shard(2, 4), shard(3, 4), unfinished}, "is not finished"},
		{"not a shard", []string{shard(1, 4), single}, "holds no shard"},
	} {
		out := filepath.Join(dir, "refused-"+strings.ReplaceAll(tc.name, " ", "-")+".db")
		code, _, errOut := solcat(append([]string{"merge", out}, tc.shards...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%s: exit %d, %q; want 2 and %q", tc.name, code, errOut, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: the refused merge wrote %s", tc.name, out)
		}
	}
}

// TestStoredShardsMerge builds queens:11 as 4 stored shards (first-row
// column ranges), each in its own OS process, merges them, and expects the
// very catalog of a build in one process: the same content hash, IDs and
// export bytes.
func TestStoredShardsMerge(t *testing.T) {
	t.Parallel() // reads the shared catalog, writes files of its own (see TestMain)
	bin := binary(t)
	dir := t.TempDir()
	var shards []string
	for i := 1; i <= 4; i++ {
		shards = append(shards, filepath.Join(dir, fmt.Sprintf("stored%d.db", i)))
	}
	buildShards(t, bin, 4, func(i int) []string {
		return []string{"--db", shards[i-1], "build", "queens:11", "--shard", fmt.Sprintf("%d/4", i)}
	})
	merged := filepath.Join(dir, "merged.db")
	// Given in any order: merge puts the shards in order.
	code, out, errOut := solcat("merge", merged, shards[2], shards[0], shards[3], shards[1])
	if code != 0 || !strings.Contains(out, "queens:11  2,680 solutions, 341 classes  matches OEIS  merged from 4 shards") {
		t.Fatalf("merge: exit %d, %q %s", code, out, errOut)
	}
	single := filepath.Join(dir, "single.db")
	if code, _, errOut := solcatDB(single, "build", "queens:11"); code != 0 {
		t.Fatal(errOut)
	}
	if a, b := contentHash(t, merged, "queens:11"), contentHash(t, single, "queens:11"); a != b {
		t.Errorf("content hash: merged %s, one process %s", a, b)
	}
	// Every shard searched all the classes: the merge records that search.
	work := "SELECT search_nodes, workers, build_seconds > 0 FROM puzzles"
	if _, a, _ := solcatDB(merged, "sql", work, "--format", "csv", "--no-headers"); a != "34710,0,1\n" {
		t.Errorf("merged search nodes, workers, build time > 0: %q", a)
	}
	if _, b, _ := solcatDB(single, "sql", "SELECT search_nodes FROM puzzles", "--format", "csv", "--no-headers"); b != "34710\n" {
		t.Errorf("search nodes of the build in one process: %q", b)
	}
	_, a, _ := solcatDB(merged, "export", "queens:11", "--format", "jsonl")
	_, b, _ := solcatDB(single, "export", "queens:11", "--format", "jsonl")
	if a != b || len(a) < 1000 {
		t.Error("the merged catalog exports other bytes than the one built in one process")
	}
	if code, out, errOut := solcatDB(merged, "verify"); code != 0 {
		t.Errorf("verify the merged catalog: %s %s", out, errOut)
	}
	missing := filepath.Join(dir, "missing.db")
	if code, _, errOut := solcat("merge", missing, shards[0], shards[1], shards[3]); code != 2 || !strings.Contains(errOut, "shard(s) 3 of 4 missing") {
		t.Errorf("merge without shard 3: exit %d, %q", code, errOut)
	}
}

// buildShards runs solcat with args(i) for shards 1 to k, all at once, as
// separate processes, and waits for them.
func buildShards(t *testing.T, bin string, k int, args func(i int) []string) {
	t.Helper()
	var cmds []*exec.Cmd
	for i := 1; i <= k; i++ {
		cmd := exec.Command(bin, args(i)...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMergeOutputs merges 11 stored shards (more than SQLite attaches at
// once), refuses to merge into a catalog that holds the puzzle unless
// --force, and leaves no file behind when a merge into a new one fails.
func TestMergeOutputs(t *testing.T) {
	t.Parallel() // reads the shared catalog, writes files of its own (see TestMain)
	dir := t.TempDir()
	var shards []string
	for i := 1; i <= 11; i++ {
		shards = append(shards, filepath.Join(dir, fmt.Sprintf("s%d.db", i)))
		if code, _, errOut := solcatDB(shards[i-1], "build", "queens:11", "--shard", fmt.Sprintf("%d/11", i)); code != 0 {
			t.Fatal(errOut)
		}
	}
	merged := filepath.Join(dir, "merged.db")
	if code, out, errOut := solcat(append([]string{"merge", merged}, shards...)...); code != 0 || !strings.Contains(out, "merged from 11 shards") {
		t.Fatalf("merge of 11 shards: exit %d, %q %s", code, out, errOut)
	}
	single := filepath.Join(dir, "single.db")
	solcatDB(single, "build", "queens:11")
	if a, b := contentHash(t, merged, "queens:11"), contentHash(t, single, "queens:11"); a != b {
		t.Errorf("content hash: merged %s, one process %s", a, b)
	}

	// Into a catalog that holds the puzzle: refused, then replaced with --force.
	counts := []string{filepath.Join(dir, "c1.db"), filepath.Join(dir, "c2.db")}
	for i, c := range counts {
		solcatDB(c, "build", "queens:11", "--count-only", "--shard", fmt.Sprintf("%d/2", i+1))
	}
	_, before, _ := solcatDB(single, "sql", "SELECT name, storage, content_hash FROM puzzles")
	code, _, errOut := solcat("merge", single, counts[0], counts[1])
	if code != 2 || errOut != "solcat: "+single+" already holds queens:11 (stored as solutions); merge into a new file, or give --force to replace it\n" {
		t.Errorf("merge into a catalog holding the puzzle: exit %d, %q", code, errOut)
	}
	if _, after, _ := solcatDB(single, "sql", "SELECT name, storage, content_hash FROM puzzles"); after != before {
		t.Errorf("the refused merge changed the catalog: %q, was %q", after, before)
	}
	if code, _, errOut := solcat("merge", single, counts[0], counts[1], "--force"); code != 0 {
		t.Errorf("merge --force: exit %d, %s", code, errOut)
	}
	if _, after, _ := solcatDB(single, "sql", "SELECT name, storage FROM puzzles", "--format", "csv", "--no-headers"); after != "queens:11,counts\n" {
		t.Errorf("after merge --force: %q", after)
	}

	// Into a catalog holding an unfinished count of the puzzle (a shard's
	// units without its mark): refused, then replaced with --force.
	unfinished := filepath.Join(dir, "unfinished.db")
	data, _ := os.ReadFile(counts[0])
	os.WriteFile(unfinished, data, 0o644)
	execSQL(t, unfinished, "DELETE FROM shards")
	if code, _, errOut := solcat("merge", unfinished, counts[0], counts[1]); code != 2 || !strings.Contains(errOut, "already holds an unfinished build of queens:11; merge into a new file, or give --force") {
		t.Errorf("merge into a catalog with an unfinished build: exit %d, %q", code, errOut)
	}
	if code, _, errOut := solcat("merge", unfinished, counts[0], counts[1], "--force"); code != 0 {
		t.Errorf("merge --force over an unfinished build: exit %d, %q", code, errOut)
	}
	if code, out, errOut := solcatDB(unfinished, "info"); code != 0 || strings.Contains(out, "unfinished") || !strings.Contains(out, "queens:11") {
		t.Errorf("info after merge --force over an unfinished build: %q %s", out, errOut)
	}

	// Shards that do not fit together: refused before a file is made.
	execSQL(t, shards[4], "DELETE FROM solution_blocks_queens_11 WHERE first_id = (SELECT max(first_id) FROM solution_blocks_queens_11)")
	fresh := filepath.Join(dir, "fresh.db")
	if code, _, errOut := solcat(append([]string{"merge", fresh}, shards...)...); code != 2 || !strings.Contains(errOut, "the shards before it end at") {
		t.Errorf("merge of shards with a gap: exit %d, %q", code, errOut)
	}
	if files, _ := filepath.Glob(fresh + "*"); len(files) > 0 {
		t.Errorf("the refused merge left %v", files)
	}
}

// TestBenchStopsOnInterrupt interrupts a bench of a baseline that does not
// look at its context inside its search, and expects it to stop at once,
// saying so, with a non-zero exit.
func TestBenchStopsOnInterrupt(t *testing.T) {
	bin := binary(t)
	cmd := exec.Command(bin, "bench", "queens:16", "--methods", "array", "--runs", "5")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	start := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err == nil || stderr.String() != "solcat: interrupted\n" {
			t.Errorf("bench after Ctrl-C: %v, %q", err, stderr.String())
		}
		if waited := time.Since(start); waited > 5*time.Second {
			t.Errorf("bench took %v to stop", waited)
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("bench did not stop within 20 s of Ctrl-C")
	}
}
