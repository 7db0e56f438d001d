package web_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/builder"
	"solcat/catalog/catfile"
	"solcat/cmd/solcat/advice"
	"solcat/cmd/solcat/web"
	"solcat/query"
)

var (
	update      = flag.Bool("update", false, "rewrite the golden fragments under testdata")
	screenshots = flag.String("screenshots", "", "a folder to save the browser test's screenshots in (docs/screenshots)")
)

// The tests serve the default catalog (magic:1-4, queens:1-14), queens:15
// as counts and a stopped build of queens:16.
var testCatalog string

func TestMain(m *testing.M) {
	flag.Parse()
	debug.SetGCPercent(400) // many catalogs in one process: collect at 4x the live heap (a fifth less processor time)
	dir, err := os.MkdirTemp("", "solcat-web-")
	if err != nil {
		panic(err)
	}
	testCatalog = filepath.Join(dir, "cat.db")
	ctx := context.Background()
	cat, err := catalog.Create(ctx, testCatalog, catfile.Holder{})
	if err != nil {
		panic(err)
	}
	b := &builder.Builder{Cat: cat}
	// The default catalog ('solcat build'), and queens:15 counted.
	for kind, sizes := range map[canon.Kind][2]int{canon.Magic: {1, 4}, canon.Queens: {1, 14}} {
		for n := sizes[0]; n <= sizes[1]; n++ {
			if _, err := b.Build(ctx, canon.Puzzle{Kind: kind, N: n}, builder.Options{Workers: 2}); err != nil {
				panic(err)
			}
		}
	}
	p, _ := canon.ParsePuzzle("queens:15")
	if _, err := b.Build(ctx, p, builder.Options{CountOnly: true, Workers: 2}); err != nil {
		panic(err)
	}
	// queens:16's build stopped after it began: a page says so, not 404.
	// Its unit's transaction is rolled back, as a stopped build's is: left
	// open, it would keep the log beside the file for the whole run, and
	// every reader opened beside another would wait seconds to fold it in.
	w, err := cat.BeginSolutions(ctx, canon.Puzzle{Kind: canon.Queens, N: 16}, catalog.BuildPlan{Layout: catalog.Layout{Solver: "test"}, RowsTotal: 15584}, 1787)
	if err != nil {
		panic(err)
	}
	w.Rollback()
	if err := cat.Close(); err != nil {
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// serve starts a server on the test catalog.
func serve(t *testing.T, timeout time.Duration) *httptest.Server {
	t.Helper()
	cat, err := catalog.Open(context.Background(), testCatalog)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web.New(cat, testCatalog, withBuilds(web.Options{Timeout: timeout, Concurrent: 4, Version: "test"}, cat)))
	t.Cleanup(func() { srv.Close(); cat.Close() })
	return srv
}

func get(t *testing.T, url string, accept string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestPages requests every kind of page, as HTML and as JSON, and checks
// its status and a golden fragment of it: the part that carries the
// answer.
func TestPages(t *testing.T) {
	srv := serve(t, 10*time.Second)
	elapsed := regexp.MustCompile(`in [0-9.]+(µs|ms|s)\b`)
	elapsedJSON := regexp.MustCompile(`"(elapsed_ms|build_seconds)": [0-9.e-]+`)
	builtAt := regexp.MustCompile(`"(built_at|started_at|updated_at)": "[^"]*"`)
	for _, tc := range []struct {
		name, path string
		status     int
		fragment   string // a regexp selecting what is compared; "" compares the whole body
	}{
		{"catalog", "/", 200, `(?s)<table class="puzzles">.*</table>`},
		{"catalog-json", "/catalog.json", 200, ""},
		{"puzzle-queens8-cell", "/puzzle/queens:8?row1=3", 200, `(?s)<p class="count".*?</ol>`},
		{"puzzle-queens8-json", "/puzzle/queens:8.json?row1=3&size=3", 200, ""},
		{"puzzle-magic4-classes", "/puzzle/magic:4?r1c1=1&r4c4=16&view=classes", 200, `(?s)<p class="count".*?</p>`},
		{"puzzle-magic4-pattern-json", "/puzzle/magic:4.json?pattern=1+.+.+.+%2F+.+.+.+.+%2F+.+.+.+.+%2F+.+.+.+.&sym=on&view=classes&size=2", 200, ""},
		{"puzzle-page-2", "/puzzle/queens:10?page=2&size=5", 200, `(?s)<ol class="items".*?</nav>`},
		{"puzzle-page-2-links-json", "/puzzle/queens:10.json?page=2&size=5", 200, `(?s)"prev".*"next": "[^"]*"`},
		{"puzzle-queens1-one", "/puzzle/queens:1", 200, `(?s)<p class="sub">.*?·|<p class="count".*?</p>`},
		{"puzzle-magic3-one-class", "/puzzle/magic:3?view=classes", 200, `(?s)<p class="count".*?</p>`},
		{"class-queens8-10", "/puzzle/queens:8/class/10", 200, `(?s)<h1>queens:8 class.*?</p>`},
		{"class-magic4-1-json", "/puzzle/magic:4/class/1.json", 200, ""},
		{"class-magic4-dudeney", "/puzzle/magic:4/class/3", 200, `Dudeney group [IVX]+`},
		{"solution-queens8-14-json", "/puzzle/queens:8/solution/14.json", 200, ""},
		{"stats-queens8-row1-json", "/puzzle/queens:8/stats.json?by=row:1", 200, ""},
		{"stats-magic4-group", "/puzzle/magic:4/stats?by=group", 200, `(?s)<table class="stats">.*?</table>`},
		{"heatmap-queens6-json", "/puzzle/queens:6/heatmap.json", 200, ""},
		{"counts-only-puzzle", "/puzzle/queens:15?q1=1", 200, `(?s)<p class="count".*?</p>`},
		{"counts-only-class", "/puzzle/queens:15?class=3", 409, `(?s)<p class="error".*?</p>`},
		{"counts-only-superqueen", "/puzzle/queens:15?prop=superqueen", 200, `(?s)<p class="count".*?</p>`},
		{"counts-only-superqueen-classes-json", "/puzzle/queens:15.json?prop=superqueen&view=classes", 200, `"count": [0-9]+`},
		{"not-a-puzzle", "/puzzle/chess:8", 400, `(?s)<p class="error".*?</p>`},
		{"not-built", "/puzzle/queens:17", 404, `(?s)<p class="error".*?</p>`},
		{"bad-cell", "/puzzle/queens:8?cell=9,1%3D1", 400, `(?s)<p class="error".*?</p>`},
		{"bad-orbit-json", "/puzzle/queens:8.json?orbit=3", 400, ""},
		{"bad-class-zero-json", "/puzzle/queens:8.json?class=0", 400, ""},
		{"not-an-id-json", "/puzzle/queens:8/class/0.json", 404, ""},
		{"bad-page-size", "/puzzle/queens:8?size=5000", 400, `(?s)<p class="error".*?</p>`},
		{"no-such-class", "/puzzle/queens:8/class/13", 404, `(?s)<p class="error".*?</p>`},
		{"no-such-solution-json", "/puzzle/queens:8/solution/93.json", 404, ""},
		{"not-an-id", "/puzzle/queens:8/class/x", 404, `(?s)<p class="error".*?</p>`},
		{"bad-stats", "/puzzle/queens:8/stats?by=colour", 400, `(?s)<p class="error".*?</p>`},
		{"stats-by-cell", "/puzzle/queens:8/stats?by=cell", 400, `(?s)<p class="error".*?</p>`},
		{"no-such-page", "/nosuch/page", 404, `(?s)<h1>.*?</p>`},
		{"no-such-page-json", "/puzzle/queens:8/nosuch.json", 404, ""},
		{"class-magic4-1-props", "/puzzle/magic:4/class/1", 200, `properties: [^<]*`},
		{"class-magic4-1-sums", "/puzzle/magic:4/class/1", 200, `<p class="sums" id="sums">[^<]*</p>`},
		{"solution-magic3-2-sums", "/puzzle/magic:3/solution/2", 200, `(?s)<h1>magic:3 solution.*?</p>`},
		{"puzzle-magic4-constant", "/puzzle/magic:4", 200, `<p class="sub">[^·]*·[^·]*·`},
		{"puzzle-queens8-oeis", "/puzzle/queens:8", 200, `(?s)<p class="oeis".*?</p>`},
		{"puzzle-magic4-oeis", "/puzzle/magic:4", 200, `(?s)<p class="oeis".*?</p>`},
		{"puzzle-magic3-form-coordinates", "/puzzle/magic:3", 200, `(?s)<table class="board magic" id="board">.*?</table>`},
		{"solution-queens8-14-text", "/puzzle/queens:8/solution/14", 200, `(?s)<pre class="text".*?</pre>`},
		{"solution-queens8-14-coordinates", "/puzzle/queens:8/solution/14", 200, `(?s)<figure class="big"><svg.*?<g transform`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := get(t, srv.URL+tc.path, "")
			if status != tc.status {
				t.Errorf("status %d, want %d: %.300s", status, tc.status, body)
			}
			if tc.fragment != "" {
				body = regexp.MustCompile(tc.fragment).FindString(body)
			}
			body = elapsed.ReplaceAllString(body, "in *")
			body = elapsedJSON.ReplaceAllString(body, `"$1": 0`)
			body = builtAt.ReplaceAllString(body, `"$1": "*"`)
			path := filepath.Join("testdata", tc.name+".txt")
			if *update {
				os.MkdirAll("testdata", 0o755)
				os.WriteFile(path, []byte(body), 0o644)
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if body != string(want) {
				t.Errorf("%s differs from %s:\n%.2000s", tc.path, path, body)
			}
		})
	}
}

// TestBuildsUnderWay: a puzzle whose build stopped, or runs now in
// another process, is shown as being built, on its page and the catalog's.
func TestBuildsUnderWay(t *testing.T) {
	// The writer below closes after the server and its reader: a writer
	// closing beside a reader of its own process waits for it, then leaves
	// its log for the next writer.
	var writer *catalog.Catalog
	t.Cleanup(func() {
		if writer != nil {
			writer.Close()
		}
	})
	srv := serve(t, 10*time.Second)
	status, body := get(t, srv.URL+"/puzzle/queens:16", "")
	if want := "queens:16 is unfinished: its build stopped with 0% saved (0 of 14,772,512 solutions); &#39;solcat build queens:16&#39; resumes it"; status != http.StatusServiceUnavailable || !strings.Contains(body, want) {
		t.Errorf("a stopped build: %d %.500s", status, body)
	}
	if _, body := get(t, srv.URL+"/", ""); !strings.Contains(body, `<ul class="building"><li>queens:16 is unfinished`) {
		t.Errorf("the catalog page does not show the stopped build: %.2000s", body)
	}
	// Another process takes the catalog to build queens:16.
	writer, err := catalog.Create(context.Background(), testCatalog, catfile.NewHolder("solcat build queens:16", []string{"queens:16"}))
	if err != nil {
		t.Fatal(err)
	}
	status, body = get(t, srv.URL+"/puzzle/queens:16.json", "")
	if status != http.StatusServiceUnavailable || !strings.Contains(body, "queens:16 is being built: 0% saved (0 of 14,772,512 solutions), by process") {
		t.Errorf("a running build: %d %s", status, body)
	}
	if status, _ := get(t, srv.URL+"/puzzle/queens:8?q1=1", ""); status != http.StatusOK {
		t.Errorf("the built puzzles are not served while another builds: %d", status)
	}
}

// TestScansRunWhenAsked: an HTML page whose count, statistic or map must
// scan more rows than the server's limit shows the plan and a link that
// runs it; the link gives the answer; JSON always answers.
func TestScansRunWhenAsked(t *testing.T) {
	cat, err := catalog.Open(context.Background(), testCatalog)
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	srv := httptest.NewServer(web.New(cat, testCatalog, withBuilds(web.Options{Timeout: 10 * time.Second, Concurrent: 2, ScanRows: 50}, cat)))
	defer srv.Close()
	for _, tc := range []struct{ path, link, param, answer string }{
		{"/puzzle/queens:10?q5=5&q8=1", "count them", "count", "<strong>7</strong> matching solutions"},
		{"/puzzle/queens:10/stats?by=row:2&q5=5", "run it", "run", "44 matching solutions"},
		{"/puzzle/queens:10/heatmap?q5=5", "draw it", "run", "<figure"},
	} {
		_, body := get(t, srv.URL+tc.path, "")
		if !strings.Contains(body, tc.link+"</a> (answer: reads ") || strings.Contains(body, tc.answer) {
			t.Errorf("%s answers without a scan being asked for: %.3000s", tc.path, body)
		}
		_, body = get(t, srv.URL+tc.path+"&"+tc.param+"=1", "")
		if !strings.Contains(body, tc.answer) {
			t.Errorf("%s&%s=1 does not answer %q: %.3000s", tc.path, tc.param, tc.answer, body)
		}
	}
	_, body := get(t, srv.URL+"/puzzle/queens:10.json?q5=5", "")
	if !strings.Contains(body, `"count": 44`) {
		t.Errorf("the JSON does not count: %.500s", body)
	}
}

// TestJSONAsTheCLIPrintsIt compares the JSON of a page with the shapes the
// CLI prints: a solution, a class, and Accept: application/json at the
// page's own address.
func TestJSONAsTheCLIPrintsIt(t *testing.T) {
	srv := serve(t, 10*time.Second)
	_, viaSuffix := get(t, srv.URL+"/puzzle/queens:8/class/10.json", "")
	_, viaAccept := get(t, srv.URL+"/puzzle/queens:8/class/10", "application/json")
	if viaSuffix != viaAccept {
		t.Errorf("the .json address and Accept differ:\n%s\n%s", viaSuffix, viaAccept)
	}
	var members []map[string]any
	if err := json.Unmarshal([]byte(viaSuffix), &members); err != nil || len(members) != 4 { // class 10 of queens:8 has orbit 4
		t.Fatalf("%d members, %v", len(members), err)
	}
	for _, key := range []string{"id", "class", "orbit", "symmetry", "props", "queens"} {
		if _, ok := members[0][key]; !ok {
			t.Errorf("a member has no %q: %v", key, members[0])
		}
	}
}

// TestRefusals: the server binds a time limit to every request (a query
// that runs out of it is cancelled and says so), and downloads stream what
// the page shows.
func TestTimeLimitAndDownloads(t *testing.T) {
	srv := serve(t, time.Nanosecond)
	status, body := get(t, srv.URL+"/puzzle/queens:10?cell=5,5%3D1", "")
	if status != http.StatusServiceUnavailable || !strings.Contains(body, "did not finish within") && !strings.Contains(body, "busy") {
		t.Errorf("a request past its time limit: %d %.300s", status, body)
	}
	srv = serve(t, 10*time.Second)
	status, body = get(t, srv.URL+"/puzzle/queens:8/export/rows.csv?q1=1", "")
	if status != 200 || strings.Count(body, "\n") != 5 || !strings.HasPrefix(body, "id,class,orbit,symmetry,props,row1") {
		t.Errorf("CSV download: %d %q", status, body)
	}
	status, body = get(t, srv.URL+"/puzzle/magic:4/export/rows.jsonl?view=classes&prop=pandiagonal", "")
	if status != 200 || strings.Count(body, "\n") != 48 {
		t.Errorf("JSON lines download of classes: %d, %d lines", status, strings.Count(body, "\n"))
	}
	status, body = get(t, srv.URL+"/puzzle/queens:8/export/rows.parquet", "")
	if status != 200 || !strings.HasPrefix(body, "PAR1") {
		t.Errorf("Parquet download: %d", status)
	}
	// A download past its time limit never looks whole: a 503 before its
	// rows begin, or a connection cut after.
	cat, err := catalog.Open(context.Background(), testCatalog)
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	slow := httptest.NewServer(web.New(cat, testCatalog, withBuilds(web.Options{Timeout: time.Second, DownloadTimeout: time.Nanosecond}, cat)))
	defer slow.Close()
	for range 20 {
		resp, err := http.Get(slow.URL + "/puzzle/queens:10/export/rows.csv")
		if err != nil {
			continue
		}
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		if err == nil && resp.StatusCode != http.StatusServiceUnavailable {
			t.Fatalf("a download past its time limit ended well: %d", resp.StatusCode)
		}
	}
}

// TestLoad sends 200 page and JSON requests at once and checks that none
// fails and that the server's memory stays bounded.
func TestLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("the load test runs without -short (under the race detector its 200 requests outlast their time limit on 2 busy cores)")
	}
	srv := serve(t, 30*time.Second)
	paths := []string{"/", "/catalog.json", "/puzzle/queens:14", "/puzzle/queens:14.json?q3=5&size=200", "/puzzle/queens:14?q7=7",
		"/puzzle/magic:4?c2_2=7&view=classes", "/puzzle/magic:4/class/7.json", "/puzzle/queens:14/stats?by=row:2", "/puzzle/magic:4/heatmap",
		"/puzzle/queens:14/solution/365596", "/puzzle/queens:14/class/45752.json", "/puzzle/magic:4.json?page=20&size=200"}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	// The peak of the heap in use, sampled while the requests run.
	var peak uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapInuse)
			}
		}
	}()
	var wg sync.WaitGroup
	failures := make(chan string, 200)
	start := time.Now()
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Get(srv.URL + paths[i%len(paths)])
			if err != nil {
				failures <- err.Error()
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				failures <- fmt.Sprintf("%s: %d", paths[i%len(paths)], resp.StatusCode)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	close(stop)
	<-sampled
	close(failures)
	for f := range failures {
		t.Error(f)
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	t.Logf("200 requests in %v; heap in use %d MB before, %d MB at most during, %d MB after; %d MB allocated in all",
		elapsed.Round(time.Millisecond), before.HeapInuse>>20, peak>>20, after.HeapInuse>>20, (after.TotalAlloc-before.TotalAlloc)>>20)
	if peak > before.HeapInuse+256<<20 || after.HeapInuse > before.HeapInuse+16<<20 {
		t.Errorf("the heap grew from %d MB to %d MB at most, %d MB after", before.HeapInuse>>20, peak>>20, after.HeapInuse>>20)
	}
}

// TestBrowser drives a real Chromium: it opens the catalog page, follows
// the link to queens:8, fixes a queen by clicking a square of the board,
// submits, and checks the count shown against the query's own count; it
// saves a screenshot of each kind of page.
func TestBrowser(t *testing.T) {
	chromium := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if path, err := exec.LookPath(name); err == nil {
			chromium = path
			break
		}
	}
	if chromium == "" && os.Getenv("SOLCAT_BROWSER") == "require" {
		t.Fatal("SOLCAT_BROWSER=require, and no Chromium is installed (Debian's chromium package)")
	}
	if chromium == "" {
		t.Skip("no Chromium here (Debian's chromium package): the pages are not opened in a browser")
	}
	srv := serve(t, 30*time.Second)
	// The first action starts the browser, with no time limit of its own
	// (a limit there would stop the browser); the steps after it have one.
	// On a busy machine Chromium now and then fails to start: it has three
	// tries, each with a profile folder of its own.
	var ctx context.Context
	for try := 1; ; try++ {
		opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(chromium), chromedp.NoSandbox, chromedp.DisableGPU,
			chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1200, 1000))
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		started, cancelBrowser := chromedp.NewContext(alloc)
		err := chromedp.Do(started, chromedp.Navigate("about:blank"))
		if err == nil {
			defer cancelAlloc()
			defer cancelBrowser()
			ctx = started
			break
		}
		cancelBrowser()
		cancelAlloc()
		if try == 3 {
			t.Fatalf("Chromium did not start in 3 tries: %v", err)
		}
		t.Logf("Chromium did not start (try %d): %v", try, err)
	}
	ctx, cancel := context.WithTimeout(ctx, 90*time.Second)
	defer cancel()
	shots := *screenshots
	if shots == "" {
		shots = t.TempDir()
	}
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	shot := func(name string) chromedp.Action[chromedp.Void] {
		return func(ctx context.Context, target *chromedp.Target) (chromedp.Void, error) {
			png, err := chromedp.FullScreenshot(100)(ctx, target)
			if err != nil {
				return chromedp.Void{}, err
			}
			return chromedp.Void{}, os.WriteFile(filepath.Join(shots, name+".png"), png, 0o644)
		}
	}
	for _, step := range []struct {
		what string
		do   chromedp.Action[chromedp.Void]
	}{
		{"open the catalog page", chromedp.Navigate(srv.URL + "/")},
		{"see its table", chromedp.WaitVisible(`table.puzzles`)},
		{"save it", shot("catalog")},
		{"follow the link to queens:8", chromedp.Click(`a[href="/puzzle/queens:8"]`)},
		{"see the board", chromedp.WaitVisible(`#board`)},
		{"fix a queen in row 1, column 3", chromedp.Click(`#board input[name="row1"][value="3"]`)},
		{"fix a queen in row 2, column 5", chromedp.Click(`#board input[name="row2"][value="5"]`)},
		{"submit", chromedp.Click(`#submit`)},
		{"see the count of the new page", chromedp.WaitVisible(`#count em`)}, // the unfiltered page has no filter to show
	} {
		err := chromedp.Do(ctx, step.do)
		// A wait that began as the page was being replaced can hold a node
		// of the old page: waiting again reads the new one.
		for try := 0; err != nil && strings.Contains(err.Error(), "Could not find node with given id") && try < 3; try++ {
			time.Sleep(100 * time.Millisecond)
			err = chromedp.Do(ctx, step.do)
		}
		if err != nil {
			t.Fatalf("%s: %v", step.what, err)
		}
	}
	count, err := chromedp.Run(ctx, chromedp.Text(`#count strong`))
	if err != nil {
		t.Fatal(err)
	}
	filter, _ := chromedp.Run(ctx, chromedp.Text(`#count em`))
	address, _ := chromedp.Run(ctx, chromedp.Location())
	if filter != "cell 1,3=1; cell 2,5=1" || !strings.Contains(address, "row1=3&row2=5") {
		t.Errorf("the page after submitting shows the filter %q at %s", filter, address)
	}
	if err := chromedp.Do(ctx, shot("puzzle")); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Open(context.Background(), testCatalog)
	if err != nil {
		t.Fatal(err)
	}
	defer cat.Close()
	rec, _, _ := cat.Puzzle(context.Background(), "queens:8")
	tg, _ := query.Bind(context.Background(), cat, canon.Puzzle{Kind: canon.Queens, N: 8}, rec)
	plan, err := tg.Plan(context.Background(), query.Question{Ask: query.AskCount, Filter: query.Filter{Cells: []query.Cell{{Row: 1, Col: 3, Value: 1}, {Row: 2, Col: 5, Value: 1}}}})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := tg.Count(context.Background(), plan)
	if count != fmt.Sprint(want) {
		t.Errorf("the page counts %q, the query %d", count, want)
	}
	for name, path := range map[string]string{"class": "/puzzle/magic:4/class/3", "solution": "/puzzle/queens:8/solution/14",
		"stats": "/puzzle/magic:4/stats?by=group", "heatmap": "/puzzle/queens:10/heatmap", "classes": "/puzzle/magic:4?view=classes&prop=pandiagonal&size=12"} {
		if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+path), chromedp.WaitVisible(`main`), shot(name)); err != nil {
			t.Errorf("%s: %v", path, err)
		}
	}
	// Counts stand right-aligned, headings over them too: the browser's
	// own reading of the style sheet, not the sheet's text.
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(`table.puzzles`)); err != nil {
		t.Fatal(err)
	}
	aligned, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("table.puzzles td, table.puzzles th")].map(e => (e.classList.contains("num") ? "num " : "text ") + getComputedStyle(e).textAlign)`))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range aligned {
		if a != "num right" && a != "text left" {
			t.Errorf("a cell of the catalog table aligned %q (want numbers right, text left): %v", a, aligned)
			break
		}
	}
}

// TestHeaders: pages may load nothing from elsewhere, are not framed, and
// are served with their real types.
func TestHeaders(t *testing.T) {
	srv := serve(t, 10*time.Second)
	for path, kind := range map[string]string{"/": "text/html; charset=utf-8", "/catalog.json": "application/json", "/static/style.css": "text/css; charset=utf-8"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		h := resp.Header
		if h.Get("Content-Type") != kind || h.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Errorf("%s: %v", path, h)
		}
	}
}

// withBuilds gives the server the CLI's words for the catalog's unfinished
// builds, as 'solcat serve' does.
func withBuilds(o web.Options, cat *catalog.Catalog) web.Options {
	o.Builds = advice.Builds{Cat: cat, Path: testCatalog}
	return o
}

// scanPages are pages whose answers scan the test catalog (class and
// block scans of queens:14 and magic:4), as HTML and as JSON.
var scanPages = []string{
	"/puzzle/queens:14/heatmap?row3=5",
	"/puzzle/queens:14/heatmap.json?row3=5&row7=7",
	"/puzzle/queens:14/stats?by=row:2&row7=7",
	"/puzzle/queens:14/stats.json?by=orbit&row2=4",
	"/puzzle/queens:14?row3=5&row7=7",
	"/puzzle/queens:14.json?row1=2&row3=5&view=classes",
	"/puzzle/magic:4/heatmap?r2c2=7",
	"/puzzle/magic:4/stats?by=group&r1c1=16",
	"/puzzle/magic:4.json?r1c1=1&r2c2=7",
	"/puzzle/magic:4/stats.json?by=cell:1,1&c2_2=7",
}

// TestScanAnswersKept: a statistic, heat map or count that scans is
// worked out once, and a page asked again says it is drawn from what was
// kept, with the same answer.
func TestScanAnswersKept(t *testing.T) {
	srv := serve(t, 30*time.Second)
	elapsed := regexp.MustCompile(`"elapsed_ms": [0-9.e-]+|in [0-9.]+(µs|ms|s)\b`)
	for _, path := range scanPages {
		t.Run(path, func(t *testing.T) {
			status, first := get(t, srv.URL+path, "")
			status2, again := get(t, srv.URL+path, "")
			if status != 200 || status2 != 200 {
				t.Fatalf("status %d, then %d", status, status2)
			}
			if strings.Contains(first, "kept from an earlier page") {
				t.Errorf("the first page says it was kept")
			}
			if !strings.Contains(path, ".json") && !strings.Contains(again, "kept from an earlier page") {
				t.Errorf("the page asked again does not say it was kept:\n%.2000s", again)
			}
			strip := func(s string) string {
				return strings.ReplaceAll(elapsed.ReplaceAllString(s, ""), " (kept from an earlier page)", "")
			}
			if strings.Contains(path, ".json") && strip(first) != strip(again) {
				t.Errorf("another answer when asked again:\n%s\n%s", first, again)
			}
		})
	}
}

// TestBurstOfScanPages: 500 requests at once on scan pages, with one place
// for scans, all get their answer: each waits its turn, and the scans of
// the same question are one. The bound: a page whose scan cannot start
// within the time limit gets 503; this burst's distinct scans take well
// under it.
func TestBurstOfScanPages(t *testing.T) {
	cat, err := catalog.Open(context.Background(), testCatalog)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(web.New(cat, testCatalog, withBuilds(web.Options{Timeout: 30 * time.Second, Concurrent: 1, Version: "test"}, cat)))
	t.Cleanup(func() { srv.Close(); cat.Close() })
	var wg sync.WaitGroup
	failures := make(chan string, 500)
	start := time.Now()
	for i := range 500 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path := scanPages[i%len(scanPages)]
			resp, err := http.Get(srv.URL + path)
			if err != nil {
				failures <- err.Error()
				return
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 {
				failures <- fmt.Sprintf("%s: %d", path, resp.StatusCode)
			}
		}()
	}
	wg.Wait()
	close(failures)
	n := 0
	for f := range failures {
		if n++; n <= 10 {
			t.Error(f)
		}
	}
	if n > 0 {
		t.Errorf("%d of 500 requests failed", n)
	}
	t.Logf("500 requests on %d scan pages in %v", len(scanPages), time.Since(start).Round(time.Millisecond))
}
