// Package web serves a catalog as local web pages: the catalog, each
// puzzle with a filter form and its solutions or classes drawn, a class, a
// solution, statistics and heat maps as charts, and downloads of what a
// page shows. Every page is also JSON at the same address (a .json suffix,
// or Accept: application/json), in the shapes the CLI prints. It reads the
// catalog only, through query's plans; every request has a time limit that
// cancels its query, and the queries at once are bounded. Pages work
// without JavaScript; every asset is embedded.
package web

import (
	"bytes"
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dustin/go-humanize"
	"golang.org/x/sync/semaphore"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/catfile"
	"solcat/cmd/solcat/advice"
	"solcat/query"
	"solcat/query/records"
)

//go:embed templates/*.html static/*
var assets embed.FS

// Limits bound what one request may ask for.
const (
	DefaultPageSize = 50
	MaxPageSize     = 200
)

const (
	// pieceBytes is how much of a download is read before it is sent.
	pieceBytes = 256 << 10
	// writeBytes is the most written at once: each write gets the client
	// time limit anew, so a slow reader that keeps reading is not cut.
	writeBytes = 64 << 10
)

// pagesAtOnce is how many pages work at once (scans apart): enough to keep
// the cores busy, few enough that the quick pages pass the others.
var pagesAtOnce = 2 * runtime.NumCPU()

// Server serves one catalog.
type Server struct {
	cat     *catalog.Catalog
	path    string
	builds  Builds
	timeout time.Duration
	client  time.Duration
	gate    *gate
	reads   *semaphore.Weighted // long reads: scans, pieces of downloads
	readers int                 // reads' size
	loads   chan struct{}       // downloads
	pages   *template.Template
	mux     *http.ServeMux
	version string
	scan    int64
	public  bool
	hosts   []string
	running sync.WaitGroup // requests being answered
	answers *answers       // of scans, kept by the puzzle's content and the question
	scans   atomic.Int64   // scans run, for the tests

	downloadTimeout time.Duration
}

// Options configure a Server.
type Options struct {
	Timeout time.Duration // each page's time limit, waiting for a slot included
	// Concurrent is how many goroutines may scan (for pages) or read pieces
	// (for downloads) at once; more wait. Default: one fewer than the
	// cores, at least one.
	Concurrent int
	Downloads  int    // downloads at once; more wait for a slot, up to Timeout (default two per core)
	Version    string // solcat's version, shown in the footer
	// ScanRows: an HTML page whose count, statistic or map would scan more
	// rows than this shows the plan and a link that runs it (default 2
	// million: about a second).
	ScanRows int64
	// DownloadTimeout limits a download (default ten times Timeout).
	DownloadTimeout time.Duration
	// ClientTimeout: a client that sends no request header, or reads
	// nothing of an answer, for this long is cut off; so is a connection
	// idle that long between requests (default 30 s).
	ClientTimeout time.Duration
	// The Host header of a request must name this server, so that no web
	// page elsewhere can read it through a name of its own that resolves
	// to this machine (DNS rebinding): localhost and loopback addresses
	// always, any IP address if Public, and the names in Hosts ("*": any).
	Public bool
	Hosts  []string
	// Builds tells of unfinished builds, in the CLI's words: how far each
	// is and the command that resumes it.
	Builds Builds
}

// Builds tells the server about the catalog's unfinished builds.
type Builds interface {
	UnderWay(ctx context.Context) ([]advice.Unfinished, error)
	Of(ctx context.Context, p canon.Puzzle) (advice.Unfinished, bool, error)
}

// New serves the catalog cat, whose file is path.
func New(cat *catalog.Catalog, path string, o Options) *Server {
	s := &Server{cat: cat, path: path, builds: o.Builds, timeout: o.Timeout, client: o.ClientTimeout, version: o.Version, scan: o.ScanRows, public: o.Public,
		gate: newGate(pagesAtOnce), readers: o.Concurrent, answers: newAnswers(maxAnswers)}
	if s.readers <= 0 {
		// The catalog reads on one connection per core: long reads get all
		// but one, which the quick reads of pages always find free.
		s.readers = max(runtime.NumCPU()-1, 1)
	}
	s.reads = semaphore.NewWeighted(int64(s.readers))
	if o.Downloads <= 0 {
		o.Downloads = 2 * runtime.NumCPU()
	}
	s.loads = make(chan struct{}, o.Downloads)
	for _, h := range o.Hosts {
		s.hosts = append(s.hosts, normalHost(h))
	}
	s.downloadTimeout = o.DownloadTimeout
	if s.downloadTimeout <= 0 {
		s.downloadTimeout = 10 * o.Timeout
	}
	if s.client <= 0 {
		s.client = 30 * time.Second
	}
	if s.scan <= 0 {
		s.scan = 2_000_000
	}
	s.pages = template.Must(template.New("").Funcs(funcs).ParseFS(assets, "templates/*.html"))
	static, _ := fs.Sub(assets, "static")
	s.mux = http.NewServeMux()
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	s.mux.HandleFunc("GET /{$}", s.handle(quick, s.catalogPage))
	s.mux.HandleFunc("GET /catalog.json", s.handle(quick, s.catalogPage))
	s.mux.HandleFunc("GET /puzzle/{name}", s.exportAlias(s.handle(lists, s.puzzlePage)))
	s.mux.HandleFunc("GET /puzzle/{name}/class/{id}", s.handle(quick, s.classPage))
	s.mux.HandleFunc("GET /puzzle/{name}/solution/{id}", s.handle(quick, s.solutionPage))
	s.mux.HandleFunc("GET /puzzle/{name}/stats", s.handle(lists, s.statsPage))
	s.mux.HandleFunc("GET /puzzle/{name}/stats.json", s.handle(lists, s.statsPage))
	s.mux.HandleFunc("GET /puzzle/{name}/heatmap", s.handle(lists, s.heatPage))
	s.mux.HandleFunc("GET /puzzle/{name}/heatmap.json", s.handle(lists, s.heatPage))
	s.mux.HandleFunc("GET /puzzle/{name}/export/{file}", s.download)
	s.mux.HandleFunc("GET /", s.handle(quick, s.notFound))
	return s
}

// notFound answers an address no page has, as solcat's page (or JSON)
// rather than the plain text of Go's server.
func (s *Server) notFound(r *request) (*page, error) {
	return nil, errorf(http.StatusNotFound, "there is no page at %s; the catalog's pages begin at /, each puzzle's at /puzzle/KIND:N (for example /puzzle/queens:8)", r.URL.Path)
}

// downloads are the files a puzzle page offers, by suffix.
var downloads = []string{".csv", ".jsonl", ".parquet"}

// exportAlias sends /puzzle/queens:8.csv (as .json gives the page as
// JSON) to the download of the same rows, /puzzle/queens:8/export/rows.csv,
// with the same filter.
func (s *Server) exportAlias(page http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("name")
		for _, ext := range downloads {
			if base, ok := strings.CutSuffix(name, ext); ok && base != "" {
				to := "/puzzle/" + url.PathEscape(base) + "/export/rows" + ext
				if r.URL.RawQuery != "" {
					to += "?" + r.URL.RawQuery
				}
				http.Redirect(w, r, to, http.StatusFound)
				return
			}
		}
		page(w, r)
	}
}

// Serve answers the connections l accepts until ctx is done; then the
// requests under way have a few seconds to finish, the rest are cut off,
// and Serve returns once every handler has returned, so that the catalog
// can be closed. ctx is also every request's parent: its queries stop
// with it.
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	srv := &http.Server{
		Handler:           s,
		ReadHeaderTimeout: s.client,
		IdleTimeout:       s.client,
		// No ReadTimeout or WriteTimeout: they would bound a whole download.
		// Every write gets the client time limit instead (deadlines).
		BaseContext: func(net.Listener) context.Context { return ctx },
		ErrorLog:    log.New(io.Discard, "", 0), // a cut client is not news
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(resetListener{l}) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	grace, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if srv.Shutdown(grace) != nil {
		srv.Close() // a handler still writing to a stalled client stops now
	}
	<-served
	s.running.Wait()
	return nil
}

// resetListener's connections are reset when a write to them times out:
// the system then drops what it still holds for that client, rather than
// keep it queued after the server has cut the client off.
type resetListener struct{ net.Listener }

func (l resetListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		return resetConn{tc}, err
	}
	return c, err
}

type resetConn struct{ *net.TCPConn }

func (c resetConn) Write(b []byte) (int, error) {
	n, err := c.TCPConn.Write(b)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		c.SetLinger(0)
	}
	return n, err
}

// ServeHTTP serves a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.running.Add(1)
	defer s.running.Done()
	w = s.deadlines(w)
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	// Everything a page uses comes from this server: nothing else may load.
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'")
	h.Set("Referrer-Policy", "no-referrer")
	if !s.hostAllowed(r.Host) {
		req := &request{Request: r, ctx: r.Context(), json: wantsJSON(r)}
		s.fail(w, req, s.misdirected(r.Host))
		return
	}
	s.mux.ServeHTTP(w, r)
}

// normalHost is a Host header's name: without its port or brackets, in
// lower case, without a final dot.
func normalHost(hostport string) string {
	name := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		name = h
	} else {
		name = strings.TrimSuffix(strings.TrimPrefix(name, "["), "]")
	}
	return strings.TrimSuffix(strings.ToLower(name), ".")
}

// hostAllowed reports whether a Host header names this server. The port
// is not checked: a forwarded port (ssh -L) is the same server.
func (s *Server) hostAllowed(hostport string) bool {
	name := normalHost(hostport)
	ip := net.ParseIP(name)
	switch {
	case name == "localhost", ip != nil && ip.IsLoopback():
		return true
	case ip != nil && s.public:
		// A browser sends an address as the Host only to a page it opened
		// at that address: no other site's name is involved.
		return true
	}
	return name != "" && (slices.Contains(s.hosts, name) || slices.Contains(s.hosts, "*"))
}

func (s *Server) misdirected(hostport string) error {
	names := "localhost and loopback addresses"
	if s.public {
		names = "localhost and IP addresses"
	}
	if len(s.hosts) > 0 {
		names += ", and " + strings.Join(s.hosts, ", ")
	}
	if hostport == "" {
		return errorf(http.StatusMisdirectedRequest, "the request names no host; this server answers to %s", names)
	}
	return errorf(http.StatusMisdirectedRequest, "this server does not answer to the host %s, only to %s; start it with --allowed-host %s to add that name",
		strconv.Quote(hostport), names, normalHost(hostport))
}

// deadlineWriter gives every write to the client the client time limit:
// a client that reads nothing for that long is cut off, however long its
// download.
type deadlineWriter struct {
	http.ResponseWriter
	rc    *http.ResponseController
	limit time.Duration
}

func (s *Server) deadlines(w http.ResponseWriter) http.ResponseWriter {
	dw := &deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), limit: s.client}
	dw.renew() // a kept-alive connection keeps the last request's deadline
	return dw
}

func (w *deadlineWriter) renew() {
	w.rc.SetWriteDeadline(time.Now().Add(w.limit)) // not supported by test recorders: no deadline there
}

func (w *deadlineWriter) WriteHeader(status int) {
	w.renew()
	w.ResponseWriter.WriteHeader(status)
}

func (w *deadlineWriter) Write(b []byte) (int, error) {
	written := 0
	for len(b) > 0 {
		n := min(len(b), writeBytes)
		w.renew()
		k, err := w.ResponseWriter.Write(b[:n])
		written += k
		if err != nil {
			return written, err
		}
		b = b[n:]
	}
	return written, nil
}

func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// A page is what a handler answers: a template and its data, and the same
// data as JSON.
type page struct {
	Template string
	Title    string
	Data     any
	JSON     any // what .json gives; Data if nil
	Status   int
}

// httpError is an answer that is not a page: its status and its message.
type httpError struct {
	status int
	msg    string
}

func (e *httpError) Error() string { return e.msg }

func errorf(status int, format string, args ...any) error {
	return &httpError{status, fmt.Sprintf(format, args...)}
}

// request is what a handler gets: the request, a context with its time
// limit, and whether it asks for JSON.
type request struct {
	*http.Request
	ctx    context.Context
	limit  time.Duration // ctx's time limit
	json   bool
	s      *Server
	inside bool // holds a place at the gate
}

// handle runs a handler at the gate, at priority prio, within the
// request's time limit, and writes its page as HTML or JSON, or its error
// as a page of its own. The page is drawn whole, and leaves the gate,
// before a byte is sent.
func (s *Server) handle(prio int, h func(*request) (*page, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.timeout)
		defer cancel()
		req := &request{Request: r, ctx: ctx, limit: s.timeout, json: wantsJSON(r), s: s}
		var body answer
		if err := req.enter(prio); err != nil {
			body = s.failure(req, err)
		} else if p, err := h(req); err != nil {
			body = s.failure(req, err)
		} else {
			body = s.render(req, p)
		}
		req.leave()
		body.send(w)
	}
}

func wantsJSON(r *http.Request) bool {
	return strings.HasSuffix(r.URL.Path, ".json") || strings.Contains(r.Header.Get("Accept"), "application/json")
}

// answer is a response drawn whole, ready to send.
type answer struct {
	status int
	kind   string // Content-Type
	body   []byte
}

func (a answer) send(w http.ResponseWriter) {
	w.Header().Set("Content-Type", a.kind)
	w.WriteHeader(a.status)
	w.Write(a.body)
}

// render draws a page as HTML or JSON.
func (s *Server) render(r *request, p *page) answer {
	status := p.Status
	if status == 0 {
		status = http.StatusOK
	}
	var buf bytes.Buffer
	if r.json {
		v := p.JSON
		if v == nil {
			v = p.Data
		}
		pr := records.NewPrinter(&buf, records.JSON, true)
		var err error
		switch v := v.(type) {
		case records.Object:
			err = pr.WriteDocument(v)
		case []records.Object:
			for _, o := range v {
				pr.Write(o)
			}
			err = pr.Close()
		default:
			err = errors.New("no JSON for this page")
		}
		if err != nil {
			return answer{http.StatusInternalServerError, "text/plain; charset=utf-8", []byte(err.Error() + "\n")}
		}
		return answer{status, "application/json", buf.Bytes()}
	}
	if err := s.pages.ExecuteTemplate(&buf, p.Template, layout{Title: p.Title, Version: s.version, Page: p.Data}); err != nil {
		return answer{http.StatusInternalServerError, "text/plain; charset=utf-8", []byte("cannot draw the page: " + err.Error() + "\n")}
	}
	return answer{status, "text/html; charset=utf-8", buf.Bytes()}
}

// layout is what every page's template gets.
type layout struct {
	Title   string
	Version string
	Page    any
}

// fail writes an error: its status and a page (or JSON) saying what went
// wrong, in one line.
func (s *Server) fail(w http.ResponseWriter, r *request, err error) { s.failure(r, err).send(w) }

// failure draws an error as a page, or JSON, of its own.
func (s *Server) failure(r *request, err error) answer {
	status, msg := http.StatusInternalServerError, err.Error()
	var he *httpError
	var counts *query.CountsOnlyError
	switch {
	case errors.As(err, &he):
		status = he.status
	case r.ctx.Err() == context.DeadlineExceeded || errors.Is(err, context.DeadlineExceeded):
		flag := "--timeout"
		if r.limit != s.timeout {
			flag = "--download-timeout"
		}
		status, msg = http.StatusServiceUnavailable, fmt.Sprintf("the query did not finish within %s; narrow the filter (a prefix of fixed first cells, or a class), or start the server with a longer %s", r.limit, flag)
	case errors.Is(err, query.ErrFilter), errors.Is(err, canon.ErrNotation):
		status = http.StatusBadRequest
	case errors.Is(err, query.ErrNoClass), errors.Is(err, query.ErrNoSolution):
		status = http.StatusNotFound
	case errors.As(err, &counts):
		status = http.StatusConflict
	case errors.Is(err, catfile.ErrDamaged):
		msg += "; 'solcat verify' names the damaged puzzles"
	}
	if r.json {
		var buf bytes.Buffer
		records.NewPrinter(&buf, records.JSON, true).WriteDocument(records.Obj("status", status, "error", msg))
		return answer{status, "application/json", buf.Bytes()}
	}
	return s.render(r, &page{Template: "error.html", Title: http.StatusText(status), Status: status, Data: errorData{status, http.StatusText(status), msg}})
}

type errorData struct {
	Status int
	Text   string
	Msg    string
}

// target binds the named puzzle, or says why it cannot: not a puzzle
// (400), being built (503), not in the catalog (404).
func (s *Server) target(r *request) (*query.BoundPuzzle, error) {
	name := strings.TrimSuffix(r.PathValue("name"), ".json")
	p, err := canon.ParsePuzzle(name)
	if err != nil {
		return nil, errorf(http.StatusBadRequest, "%v", err)
	}
	rec, ok, err := s.cat.Puzzle(r.ctx, p.String())
	if err != nil {
		return nil, err
	}
	if !ok {
		if u, unfinished, err := s.builds.Of(r.ctx, p); err == nil && unfinished {
			return nil, errorf(http.StatusServiceUnavailable, "%s", u.Line)
		}
		return nil, errorf(http.StatusNotFound, "%s is not in this catalog", p)
	}
	return query.Bind(r.ctx, s.cat, p, rec)
}

// id reads a path's numeric ID ("10" or "10.json").
func id(r *request) (int64, error) {
	text := strings.TrimSuffix(r.PathValue("id"), ".json")
	v, err := strconv.ParseInt(text, 10, 64)
	if err != nil || v < 1 {
		return 0, errorf(http.StatusNotFound, "%q is not an ID: IDs are whole numbers from 1", text)
	}
	return v, nil
}

// with is the current query string with some parameters set (or, with an
// empty value, removed).
func with(q url.Values, kv ...string) string {
	out := url.Values{}
	for k, v := range q {
		out[k] = append([]string(nil), v...)
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			out.Del(kv[i])
		} else {
			out.Set(kv[i], kv[i+1])
		}
	}
	if len(out) == 0 {
		return ""
	}
	return "?" + out.Encode()
}

var funcs = template.FuncMap{
	"svg":   func(s string) template.HTML { return template.HTML(s) }, // drawings made by package draw
	"comma": comma,
	// counted writes a count with separators and its noun, given in the
	// plural, singular for one: "1 class", "14,200 solutions".
	"counted": func(n int64, nouns string) string {
		if n == 1 {
			if strings.HasSuffix(nouns, "sses") {
				return "1 " + strings.TrimSuffix(nouns, "es")
			}
			return "1 " + strings.TrimSuffix(nouns, "s")
		}
		return comma(n) + " " + nouns
	},
	"list": func(v ...int) []int { return v },
	"inc":  func(i int) int { return i + 1 }, // a row or column number, from an index
	"pct":  func(share float64) float64 { return 100 * share },
}

// comma writes a count with thousands separators.
func comma(v int64) string { return humanize.Comma(v) }
