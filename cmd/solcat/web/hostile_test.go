package web_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/cmd/solcat/web"

	"github.com/zeebo/xxh3"
)

// listen serves the test catalog as 'solcat serve' does (web.Serve on a
// real listener, with its timeouts) on a free port of the loopback, and
// returns its address.
func listen(t *testing.T, o web.Options) string {
	t.Helper()
	cat, err := catalog.Open(context.Background(), testCatalog)
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if o.Timeout == 0 {
		o.Timeout = 10 * time.Second
	}
	o.Version = "test"
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- web.New(cat, testCatalog, withBuilds(o, cat)).Serve(ctx, l) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
		cat.Close()
	})
	return l.Addr().String()
}

// stall opens n connections that each ask for path and never read a
// byte of the answer (their receive buffers are small, so the server's
// writes soon block). They are closed when the test ends.
func stall(t *testing.T, addr string, n int, paths ...string) {
	t.Helper()
	for i := range n {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conn.(*net.TCPConn).SetReadBuffer(4096)
		fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", paths[i%len(paths)], addr)
		t.Cleanup(func() { conn.Close() })
	}
}

// fileHash is a hash of the file's bytes, read through a small buffer (the
// test catalog is hashed after every case): a fast hash, since the file is
// compared, not authenticated.
func fileHash(t *testing.T, path string) xxh3.Uint128 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := xxh3.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return h.Sum128()
}

var errorLine = regexp.MustCompile(`<p class="error" id="error">(.*?)</p>`)

// message is the one-line error an answer carries: the error page's, or
// the JSON's "error".
func message(body string) string {
	if m := errorLine.FindStringSubmatch(body); m != nil {
		return html.UnescapeString(m[1])
	}
	var j struct{ Error string }
	if json.Unmarshal([]byte(body), &j) == nil {
		return j.Error
	}
	return ""
}

// TestHostileRequests sends what a hostile or careless client might, to a
// real server on the loopback: every kind of bad parameter on each page
// that takes a form, Host headers good and evil (with and without
// --public), downloads held by clients that never read, and a client cut
// off for reading nothing. Each case checks the status, the one-line
// message where there is one, and that the catalog file is byte for byte
// as it was.
func TestHostileRequests(t *testing.T) {
	servers := map[string]web.Options{
		"":        {Concurrent: 2, Downloads: 2},
		"public":  {Public: true},
		"named":   {Hosts: []string{"solcat.example"}},
		"any":     {Hosts: []string{"*"}},
		"1 slot":  {Downloads: 1, Timeout: time.Second, ClientTimeout: 20 * time.Second},
		"cut off": {Downloads: 1, ClientTimeout: time.Second},
	}
	addrs := map[string]string{}
	addr := func(server string) string {
		if addrs[server] == "" {
			addrs[server] = listen(t, servers[server])
		}
		return addrs[server]
	}
	queensProps := strings.Join(canon.PropertyNames(canon.Queens), ", ")
	queensPage := "it takes row1 to row8, cell, pattern, prop, orbit, class, sym, view, page, size, count"
	offBoard := func(param string) string { return param + ": off the board; queens:8 has rows and columns 1 to 8" }
	offMagic := func(param string) string { return param + ": off the board; magic:4 has rows and columns 1 to 4" }
	local := "only to localhost and loopback addresses; start it with --allowed-host "
	type tc struct {
		name   string
		server string // a key of servers
		path   string
		host   string // the Host header; "" the server's address; PORT its port
		raw    string // a whole request of its own, sent as it is
		json   bool   // ask for JSON
		before func(t *testing.T, addr string)
		status int
		msg    string // the one-line error; PORT the server's port
		body   string // a fragment of a good answer
		within time.Duration
	}
	cases := []tc{
		// A puzzle page's board, queens.
		{name: "queen row off the board", path: "/puzzle/queens:8?q9=1", status: 400, msg: offBoard("q9=1")},
		{name: "queen row 0", path: "/puzzle/queens:8?q0=1", status: 400, msg: offBoard("q0=1")},
		{name: "queen row -1", path: "/puzzle/queens:8?q-1=1", status: 400, msg: offBoard("q-1=1")},
		{name: "queen column off the board", path: "/puzzle/queens:8?q1=9", status: 400, msg: offBoard("q1=9")},
		{name: "queen column 0", path: "/puzzle/queens:8?q1=0", status: 400, msg: offBoard("q1=0")},
		{name: "queen column a word", path: "/puzzle/queens:8?q1=x", status: 400, msg: `q1="x": the column is not a whole number; give the column of the row's queen, 1 to 8`},
		{name: "bad escape", path: "/puzzle/queens:8?q1=%zz", status: 400, msg: `the address's parameters are not URL-encoded (invalid escape "%zz"); write a % in a value as %25`},
		{name: "semicolon", path: "/puzzle/queens:8?q1=1;q2=3", status: 400, msg: `the address's parameters are not URL-encoded (invalid semicolon separator in query); write a % in a value as %25`},
		{name: "not UTF-8", path: "/puzzle/queens:8?pattern=%ff", status: 400, msg: `pattern="\xff": not UTF-8 text`},
		{name: "queen row twice", path: "/puzzle/queens:8?q1=1&q1=2", status: 400, msg: "q1 is given 2 times (1, 2); give it once"},
		{name: "queen row zero-padded", path: "/puzzle/queens:8?q01=1", status: 400, msg: `"q01": not a parameter of a puzzle page; ` + queensPage},
		{name: "magic square on queens", path: "/puzzle/queens:8?c1_1=1", status: 400, msg: `"c1_1": not a parameter of a puzzle page; ` + queensPage},
		{name: "unknown parameter", path: "/puzzle/queens:8?utm_source=x", status: 400, msg: `"utm_source": not a parameter of a puzzle page; ` + queensPage},
		// The board's squares by the CLI's column names, and by the older ones.
		{name: "queen by row name", path: "/puzzle/queens:8.json?row1=1", status: 200, body: `"count": 4`},
		{name: "queen by row name off the board", path: "/puzzle/queens:8?row9=1", status: 400, msg: offBoard("row9=1")},
		{name: "queen by two names", path: "/puzzle/queens:8?q1=1&row1=2", status: 400, msg: "q1 and row1 name the same square; give one"},
		{name: "magic cell by name", path: "/puzzle/magic:4.json?r1c1=1", status: 200, body: `"count": 416`},
		{name: "magic cell by two names", path: "/puzzle/magic:4?c1_1=1&r1c1=1", status: 400, msg: "c1_1 and r1c1 name the same square; give one"},
		{name: "queens row on magic", path: "/puzzle/magic:4?row1=1", status: 400, msg: `"row1": not a parameter of a puzzle page; it takes r1c1 to r4c4, cell, pattern, prop, orbit, class, sym, view, page, size, count`},
		// The rest of a puzzle page's form.
		{name: "orbit 3", path: "/puzzle/queens:8?orbit=3", status: 400, msg: "orbit 3: orbit sizes are 1, 2, 4 or 8"},
		{name: "orbit twice", path: "/puzzle/queens:8?orbit=1&orbit=2", status: 400, msg: "orbit is given 2 times (1, 2); give it once"},
		{name: "class 0", path: "/puzzle/queens:8?class=0", status: 400, msg: `class "0": give a whole number from 1`},
		{name: "page size 5000", path: "/puzzle/queens:8?size=5000", status: 400, msg: `size "5000": give a whole number from 1 to 200`},
		{name: "page 0", path: "/puzzle/queens:8?page=0", status: 400, msg: `page "0": give a whole number from 1`},
		{name: "view list", path: "/puzzle/queens:8?view=list", status: 400, msg: `view="list": give view=classes, or leave it out`},
		{name: "sym yes", path: "/puzzle/queens:8?sym=yes&q1=1", status: 400, msg: `sym="yes": give sym=on, or leave it out`},
		{name: "sym without cells", path: "/puzzle/queens:8?sym=on", status: 400, msg: "up-to-symmetry: needs cell or pattern conditions to match; add some, or leave it out"},
		{name: "count 2", path: "/puzzle/queens:8?count=2", status: 400, msg: `count="2": give count=1, or leave it out`},
		{name: "unknown property", path: "/puzzle/queens:8?prop=shiny", status: 400, msg: `prop "shiny": not a property of queens puzzles; use one of: ` + queensProps},
		{name: "cell off the board", path: "/puzzle/queens:8?cell=9,1%3D1", status: 400, msg: "cell 9,1=1: off the board; queens:8 has rows and columns 1 to 8"},
		{name: "cell without value", path: "/puzzle/queens:8?cell=1,1", status: 400, msg: `cell "1,1": write ROW,COL=VALUE, for example 1,1=16`},
		{name: "the form's empty fields", path: "/puzzle/queens:8?q1=&q2=&pattern=&orbit=&view=", status: 200, body: "<strong>92</strong> matching solutions"},
		{name: "two queens", path: "/puzzle/queens:8.json?q1=3&q2=5", status: 200, body: `"count": 4`},
		// A magic square's board.
		{name: "magic cell off the board", path: "/puzzle/magic:4?c5_5=1", status: 400, msg: offMagic("c5_5=1")},
		{name: "magic cell 0,0", path: "/puzzle/magic:4?c0_0=1", status: 400, msg: offMagic("c0_0=1")},
		{name: "magic column off the board", path: "/puzzle/magic:4?c1_5=3", status: 400, msg: offMagic("c1_5=3")},
		{name: "magic value 17", path: "/puzzle/magic:4?c1_1=17", status: 400, msg: "c1_1=17: magic:4 holds the values 1 to 16"},
		{name: "magic value 0", path: "/puzzle/magic:4?c1_1=0", status: 400, msg: "c1_1=0: magic:4 holds the values 1 to 16"},
		{name: "magic value a word", path: "/puzzle/magic:4?c1_1=x", status: 400, msg: `c1_1="x": the value is not a whole number; magic:4 holds the values 1 to 16`},
		{name: "magic cell twice", path: "/puzzle/magic:4?c1_1=1&c1_1=2", status: 400, msg: "c1_1 is given 2 times (1, 2); give it once"},
		{name: "queen on a magic square", path: "/puzzle/magic:4?q1=1", status: 400, msg: `"q1": not a parameter of a puzzle page; it takes r1c1 to r4c4, cell, pattern, prop, orbit, class, sym, view, page, size, count`},
		{name: "magic cell as JSON", path: "/puzzle/magic:4.json?c5_5=1", json: true, status: 400, msg: offMagic("c5_5=1")},
		{name: "magic cell good", path: "/puzzle/magic:4.json?c1_1=1", status: 200, body: `"count": 416`},
		// Statistics, heat maps, downloads, classes and the catalog.
		{name: "stats by colour", path: "/puzzle/queens:8/stats?by=colour", status: 400, msg: `by "colour": use cell (every cell, as a grid), cell:R,C, row:R or col:C (queens), orbit, prop:NAME or group (magic:4)`},
		{name: "stats by twice", path: "/puzzle/queens:8/stats?by=orbit&by=row:1", status: 400, msg: "by is given 2 times (orbit, row:1); give it once"},
		{name: "stats page", path: "/puzzle/queens:8/stats?page=2", status: 400, msg: `"page": not a parameter of a statistics page; it takes row1 to row8, cell, pattern, prop, orbit, class, sym, by, run`},
		{name: "stats queen off the board", path: "/puzzle/queens:8/stats?q9=1", status: 400, msg: offBoard("q9=1")},
		{name: "stats run yes", path: "/puzzle/queens:8/stats?run=yes", status: 400, msg: `run="yes": give run=1, or leave it out`},
		{name: "heat map cell off the board", path: "/puzzle/magic:4/heatmap?c5_5=1", status: 400, msg: offMagic("c5_5=1")},
		{name: "heat map by", path: "/puzzle/queens:8/heatmap?by=orbit", status: 400, msg: `"by": not a parameter of a heat map page; it takes row1 to row8, cell, pattern, prop, orbit, class, sym, run`},
		{name: "heat map bad escape", path: "/puzzle/queens:8/heatmap.json?q1=%zz", json: true, status: 400, msg: `the address's parameters are not URL-encoded (invalid escape "%zz"); write a % in a value as %25`},
		{name: "download queen off the board", path: "/puzzle/queens:8/export/rows.csv?q9=1", status: 400, msg: offBoard("q9=1")},
		{name: "download page", path: "/puzzle/queens:8/export/rows.csv?page=2", status: 400, msg: `"page": not a parameter of a download; it takes row1 to row8, cell, pattern, prop, orbit, class, sym, view`},
		{name: "download queen twice", path: "/puzzle/queens:8/export/rows.jsonl?q1=1&q1=2", status: 400, msg: "q1 is given 2 times (1, 2); give it once"},
		{name: "download magic value 17", path: "/puzzle/magic:4/export/rows.csv?c1_1=17", status: 400, msg: "c1_1=17: magic:4 holds the values 1 to 16"},
		{name: "download not a file", path: "/puzzle/queens:8/export/rows.txt", status: 404, msg: "rows.txt: downloads are rows.csv, rows.jsonl or rows.parquet"},
		{name: "download good", path: "/puzzle/queens:8/export/rows.csv?q1=1", status: 200, body: "id,class,orbit,symmetry,props,row1"},
		{name: "class page parameter", path: "/puzzle/queens:8/class/1?x=1", status: 400, msg: `"x": not a parameter of a class or solution page; it takes none`},
		{name: "solution page parameter", path: "/puzzle/queens:8/solution/14.json?q1=1", json: true, status: 400, msg: `"q1": not a parameter of a class or solution page; it takes none`},
		{name: "catalog parameter", path: "/?puzzle=queens:8", status: 400, msg: `"puzzle": not a parameter of the catalog page; it takes none`},
		// The Host header.
		{name: "host 127.0.0.1", path: "/", host: "127.0.0.1", status: 200, body: `<table class="puzzles">`},
		{name: "host 127.0.0.1 with port", path: "/", host: "127.0.0.1:PORT", status: 200, body: `<table class="puzzles">`},
		{name: "host localhost with port", path: "/", host: "localhost:PORT", status: 200, body: `<table class="puzzles">`},
		{name: "host LOCALHOST.", path: "/", host: "LOCALHOST.", status: 200, body: `<table class="puzzles">`},
		{name: "host [::1] with port", path: "/", host: "[::1]:PORT", status: 200, body: `<table class="puzzles">`},
		{name: "host [::1]", path: "/", host: "[::1]", status: 200, body: `<table class="puzzles">`},
		{name: "host 127.0.0.2, another port", path: "/", host: "127.0.0.2:9999", status: 200, body: `<table class="puzzles">`},
		{name: "host evil with port", path: "/puzzle/queens:8", host: "evil.example:PORT", status: 421, msg: `this server does not answer to the host "evil.example:PORT", ` + local + "evil.example to add that name"},
		{name: "host evil", path: "/", host: "evil.example", status: 421, msg: `this server does not answer to the host "evil.example", ` + local + "evil.example to add that name"},
		{name: "host resolving to loopback", path: "/", host: "127.0.0.1.nip.io:PORT", status: 421, msg: `this server does not answer to the host "127.0.0.1.nip.io:PORT", ` + local + "127.0.0.1.nip.io to add that name"},
		{name: "host localhost subdomain", path: "/", host: "localhost.evil.example", status: 421, msg: `this server does not answer to the host "localhost.evil.example", ` + local + "localhost.evil.example to add that name"},
		{name: "host other address", path: "/", host: "10.1.2.3:PORT", status: 421, msg: `this server does not answer to the host "10.1.2.3:PORT", ` + local + "10.1.2.3 to add that name"},
		{name: "host evil, JSON", path: "/catalog.json", host: "evil.example", json: true, status: 421, msg: `this server does not answer to the host "evil.example", ` + local + "evil.example to add that name"},
		{name: "host evil, static", path: "/static/style.css", host: "evil.example", status: 421, msg: `this server does not answer to the host "evil.example", ` + local + "evil.example to add that name"},
		{name: "absolute address names evil", raw: "GET http://evil.example/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", status: 421, msg: `this server does not answer to the host "evil.example", ` + local + "evil.example to add that name"},
		{name: "no host at all", raw: "GET / HTTP/1.0\r\n\r\n", status: 421, msg: "the request names no host; this server answers to localhost and loopback addresses"},
		{name: "public: an address", server: "public", path: "/", host: "10.1.2.3:PORT", status: 200, body: `<table class="puzzles">`},
		{name: "public: an IPv6 address", server: "public", path: "/", host: "[2001:db8::1]:PORT", status: 200, body: `<table class="puzzles">`},
		{name: "public: evil", server: "public", path: "/", host: "evil.example:PORT", status: 421, msg: `this server does not answer to the host "evil.example:PORT", only to localhost and IP addresses; start it with --allowed-host evil.example to add that name`},
		{name: "allowed name", server: "named", path: "/", host: "SOLCAT.example.:PORT", status: 200, body: `<table class="puzzles">`},
		{name: "allowed name, another", server: "named", path: "/", host: "evil.example", status: 421, msg: `this server does not answer to the host "evil.example", only to localhost and loopback addresses, and solcat.example; start it with --allowed-host evil.example to add that name`},
		{name: "any name allowed", server: "any", path: "/", host: "evil.example", status: 200, body: `<table class="puzzles">`},
		// Clients that never read. A stalled client holds what it holds
		// for the client timeout (30 s); a page within 2 s shows it holds
		// nothing another page needs, with room for a busy machine (a quiet
		// one answers in milliseconds).
		{name: "ten stalled downloads, then a class page", before: func(t *testing.T, addr string) {
			stall(t, addr, 10, "/puzzle/queens:14/export/rows.csv", "/puzzle/queens:14/export/rows.jsonl", "/puzzle/queens:14/export/rows.csv?view=classes")
		}, path: "/puzzle/queens:8/class/1", status: 200, body: "<h1>queens:8 class 1", within: 2 * time.Second},
		{name: "stalled heavy pages, then a page", before: func(t *testing.T, addr string) {
			stall(t, addr, 6, "/puzzle/queens:14/heatmap?run=1", "/puzzle/queens:14?q7=7&count=1&size=200", "/puzzle/queens:14/stats?by=row:3")
		}, path: "/puzzle/queens:8?q1=1", status: 200, body: "<strong>4</strong> matching solutions", within: 2 * time.Second},
		{name: "a stalled download holds the only download slot", server: "1 slot", before: func(t *testing.T, addr string) {
			stall(t, addr, 1, "/puzzle/queens:14/export/rows.csv")
			time.Sleep(500 * time.Millisecond)
		}, path: "/puzzle/queens:8/export/rows.csv", status: 503, msg: "the server is busy: every download slot (1) is taken, and this download could not start within 1s; try again later"},
		{name: "a stalled download, then a scan", server: "1 slot", before: func(t *testing.T, addr string) {
			stall(t, addr, 1, "/puzzle/queens:14/export/rows.csv")
			time.Sleep(500 * time.Millisecond)
		}, path: "/puzzle/queens:12/stats?by=row:1", status: 200, body: "14,200 matching solutions", within: 2 * time.Second},
	}
	before := fileHash(t, testCatalog)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.before != nil && testing.Short() {
				t.Skip("clients that stall take a few seconds, and time limits that hold on a busy machine")
			}
			a := addr(c.server)
			_, port, _ := net.SplitHostPort(a)
			if c.before != nil {
				c.before(t, a)
			}
			start := time.Now()
			var resp *http.Response
			var err error
			if c.raw != "" {
				conn, derr := net.Dial("tcp", a)
				if derr != nil {
					t.Fatal(derr)
				}
				defer conn.Close()
				io.WriteString(conn, c.raw)
				resp, err = http.ReadResponse(bufio.NewReader(conn), nil)
			} else {
				req, _ := http.NewRequest("GET", "http://"+a+c.path, nil)
				if c.host != "" {
					req.Host = strings.ReplaceAll(c.host, "PORT", port)
				}
				if c.json {
					req.Header.Set("Accept", "application/json")
				}
				resp, err = http.DefaultClient.Do(req)
			}
			if err != nil {
				t.Fatal(err)
			}
			data, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			elapsed := time.Since(start)
			body := string(data)
			if err != nil {
				t.Errorf("reading the answer: %v", err)
			}
			if resp.StatusCode != c.status {
				t.Errorf("status %d, want %d: %.300s", resp.StatusCode, c.status, body)
			}
			if want := strings.ReplaceAll(c.msg, "PORT", port); message(body) != want {
				t.Errorf("message %q\nwant    %q", message(body), want)
			}
			if c.json && !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
				t.Errorf("asked for JSON, got %s", resp.Header.Get("Content-Type"))
			}
			if c.body != "" && !strings.Contains(body, c.body) {
				t.Errorf("the answer lacks %q: %.500s", c.body, body)
			}
			if c.within > 0 && elapsed > c.within {
				t.Errorf("answered in %v, more than %v", elapsed, c.within)
			}
			if fileHash(t, testCatalog) != before {
				t.Fatal("the catalog file changed")
			}
		})
	}
	t.Run("a client that reads nothing is cut off", func(t *testing.T) {
		if testing.Short() {
			t.Skip("a client cut off, or not, after seconds")
		}
		a := addr("cut off")
		conn, err := net.Dial("tcp", a)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.(*net.TCPConn).SetReadBuffer(4096)
		fmt.Fprintf(conn, "GET /puzzle/queens:14/export/rows.csv HTTP/1.1\r\nHost: %s\r\n\r\n", a)
		time.Sleep(3 * time.Second) // the buffers fill, then a write makes no progress for a second
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		n, err := io.Copy(io.Discard, resp.Body)
		if resp.StatusCode != 200 || err == nil || os.IsTimeout(err) {
			t.Errorf("status %d, %d bytes, then %v; want 200 and a connection cut off", resp.StatusCode, n, err)
		}
		// Its download slot, the only one, is free again.
		status, body := get(t, "http://"+a+"/puzzle/queens:10/export/rows.csv", "")
		if status != 200 || strings.Count(body, "\n") != 725 {
			t.Errorf("the next download: %d, %d lines", status, strings.Count(body, "\n"))
		}
		if fileHash(t, testCatalog) != before {
			t.Fatal("the catalog file changed")
		}
	})
	t.Run("a slow reader that keeps reading is not cut off", func(t *testing.T) {
		if testing.Short() {
			t.Skip("a client cut off, or not, after seconds")
		}
		a := addr("cut off")
		conn, err := net.Dial("tcp", a)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.(*net.TCPConn).SetReadBuffer(256 << 10)
		fmt.Fprintf(conn, "GET /puzzle/queens:14/export/rows.csv HTTP/1.1\r\nHost: %s\r\n\r\n", a)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatal(err)
		}
		var got strings.Builder
		start := time.Now()
		for {
			// Less than the client time limit between reads, and slower
			// than the server writes: the buffers between fill, and the
			// server waits for each write.
			time.Sleep(300 * time.Millisecond)
			if _, err := io.CopyN(&got, resp.Body, 2<<20); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("after %d bytes: %v", got.Len(), err)
			}
		}
		size, lines := got.Len(), strings.Count(got.String(), "\n")
		if lines != 365597 {
			t.Errorf("read slowly: %d lines, want 365597", lines)
		}
		t.Logf("%d MB read 2 MB at a time in %v", size>>20, time.Since(start).Round(time.Millisecond))
	})
}

// TestLinksAreAnswered follows every link of pages that carry every kind
// of parameter: a page never links to an address its server refuses.
func TestLinksAreAnswered(t *testing.T) {
	srv := serve(t, 10*time.Second)
	href := regexp.MustCompile(`href="([^"#]+)"`)
	for _, path := range []string{
		"/puzzle/queens:10?q1=2&q3=&orbit=8&prop=" + canon.PropertyNames(canon.Queens)[0] + "&page=2&size=5&count=1",
		"/puzzle/queens:10?cell=2,5%3D1&sym=on&view=classes&size=3&page=2",
		"/puzzle/magic:4?c1_1=1&c2_2=&pattern=&orbit=&view=classes&size=4&page=3",
		"/puzzle/magic:4/stats?by=group&c1_1=16&run=1",
		"/puzzle/queens:10/heatmap?q2=4&run=1",
		"/puzzle/magic:4/class/3",
		"/puzzle/queens:8/solution/14",
		"/",
	} {
		status, body := get(t, srv.URL+path, "")
		if status != 200 {
			t.Fatalf("%s: %d %.300s", path, status, body)
		}
		links := 0
		for _, m := range href.FindAllStringSubmatch(body, -1) {
			link := html.UnescapeString(m[1])
			if !strings.HasPrefix(link, "/") {
				continue
			}
			links++
			// A puzzle stored as counts only has no page of solutions (409).
			if status, body := get(t, srv.URL+link, ""); status != 200 && !(status == 409 && link == "/puzzle/queens:15") {
				t.Errorf("%s links to %s: %d %s", path, link, status, message(body))
			}
		}
		if links < 2 {
			t.Errorf("%s: %d links", path, links)
		}
	}
}
