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
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"solcat/canon"
	"solcat/catalog"
	"solcat/catalog/build"
	"solcat/query"
)

//go:embed templates/*.html static/*
var assets embed.FS

// Limits bound what one request may ask for.
const (
	DefaultPageSize = 50
	MaxPageSize     = 200
)

// Server serves one catalog.
type Server struct {
	cat     *catalog.Catalog
	path    string
	timeout time.Duration
	slots   chan struct{}
	pages   *template.Template
	mux     *http.ServeMux
	version string
	scan    int64

	downloadTimeout time.Duration
}

// Options configure a Server.
type Options struct {
	Timeout    time.Duration // each request's time limit
	Concurrent int           // queries that run at once; more wait for a slot
	Version    string        // solcat's version, shown in the footer
	// ScanRows: an HTML page whose count, statistic or map would scan more
	// rows than this shows the plan and a link that runs it (default 2
	// million: about a second).
	ScanRows int64
	// DownloadTimeout limits a download (default ten times Timeout).
	DownloadTimeout time.Duration
}

// New serves the catalog cat, whose file is path.
func New(cat *catalog.Catalog, path string, o Options) *Server {
	s := &Server{cat: cat, path: path, timeout: o.Timeout, slots: make(chan struct{}, max(o.Concurrent, 1)), version: o.Version, scan: o.ScanRows}
	s.downloadTimeout = o.DownloadTimeout
	if s.downloadTimeout <= 0 {
		s.downloadTimeout = 10 * o.Timeout
	}
	if s.scan <= 0 {
		s.scan = 2_000_000
	}
	s.pages = template.Must(template.New("").Funcs(funcs).ParseFS(assets, "templates/*.html"))
	static, _ := fs.Sub(assets, "static")
	s.mux = http.NewServeMux()
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	s.mux.HandleFunc("GET /{$}", s.handle(s.catalogPage))
	s.mux.HandleFunc("GET /catalog.json", s.handle(s.catalogPage))
	s.mux.HandleFunc("GET /puzzle/{name}", s.handle(s.puzzlePage))
	s.mux.HandleFunc("GET /puzzle/{name}/class/{id}", s.handle(s.classPage))
	s.mux.HandleFunc("GET /puzzle/{name}/solution/{id}", s.handle(s.solutionPage))
	s.mux.HandleFunc("GET /puzzle/{name}/stats", s.handle(s.statsPage))
	s.mux.HandleFunc("GET /puzzle/{name}/stats.json", s.handle(s.statsPage))
	s.mux.HandleFunc("GET /puzzle/{name}/heatmap", s.handle(s.heatPage))
	s.mux.HandleFunc("GET /puzzle/{name}/heatmap.json", s.handle(s.heatPage))
	s.mux.HandleFunc("GET /puzzle/{name}/export/{file}", s.download)
	return s
}

// ServeHTTP serves a request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	// Everything a page uses comes from this server: nothing else may load.
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'")
	h.Set("Referrer-Policy", "no-referrer")
	s.mux.ServeHTTP(w, r)
}

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
	ctx  context.Context
	json bool
}

// handle runs a handler within the request's time limit and a query slot,
// and writes its page as HTML or JSON, or its error as a page of its own.
func (s *Server) handle(h func(*request) (*page, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), s.timeout)
		defer cancel()
		req := &request{Request: r, ctx: ctx, json: wantsJSON(r)}
		select {
		case s.slots <- struct{}{}:
			defer func() { <-s.slots }()
		case <-ctx.Done():
			s.fail(w, req, errorf(http.StatusServiceUnavailable, "the server is busy: no query could start within %s; try again", s.timeout))
			return
		}
		p, err := h(req)
		if err != nil {
			s.fail(w, req, err)
			return
		}
		s.write(w, req, p)
	}
}

func wantsJSON(r *http.Request) bool {
	return strings.HasSuffix(r.URL.Path, ".json") || strings.Contains(r.Header.Get("Accept"), "application/json")
}

func (s *Server) write(w http.ResponseWriter, r *request, p *page) {
	status := p.Status
	if status == 0 {
		status = http.StatusOK
	}
	if r.json {
		v := p.JSON
		if v == nil {
			v = p.Data
		}
		var buf bytes.Buffer
		pr := query.NewPrinter(&buf, query.JSON, true)
		var err error
		switch v := v.(type) {
		case query.Object:
			err = pr.WriteDocument(v)
		case []query.Object:
			for _, o := range v {
				pr.Write(o)
			}
			err = pr.Close()
		default:
			err = errors.New("no JSON for this page")
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(buf.Bytes())
		return
	}
	var buf bytes.Buffer
	if err := s.pages.ExecuteTemplate(&buf, p.Template, layout{Title: p.Title, Version: s.version, Page: p.Data}); err != nil {
		http.Error(w, "cannot draw the page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// layout is what every page's template gets.
type layout struct {
	Title   string
	Version string
	Page    any
}

// fail writes an error: its status and a page (or JSON) saying what went
// wrong, in one line.
func (s *Server) fail(w http.ResponseWriter, r *request, err error) {
	status, msg := http.StatusInternalServerError, err.Error()
	var he *httpError
	var counts *query.CountsOnlyError
	switch {
	case errors.As(err, &he):
		status = he.status
	case r.ctx.Err() == context.DeadlineExceeded || errors.Is(err, context.DeadlineExceeded):
		status, msg = http.StatusServiceUnavailable, fmt.Sprintf("the query did not finish within %s; narrow the filter (a prefix of fixed first cells, or a class), or start the server with a longer --timeout", s.timeout)
	case errors.Is(err, query.ErrFilter), errors.Is(err, canon.ErrNotation):
		status = http.StatusBadRequest
	case errors.Is(err, query.ErrNoClass), errors.Is(err, query.ErrNoSolution):
		status = http.StatusNotFound
	case errors.As(err, &counts):
		status = http.StatusConflict
	case errors.Is(err, catalog.ErrDamaged):
		msg += "; 'solcat verify' names the damaged puzzles"
	}
	if r.json {
		var buf bytes.Buffer
		query.NewPrinter(&buf, query.JSON, true).WriteDocument(query.O("status", status, "error", msg))
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write(buf.Bytes())
		return
	}
	s.write(w, r, &page{Template: "error.html", Title: http.StatusText(status), Status: status, Data: errorData{status, http.StatusText(status), msg}})
}

type errorData struct {
	Status int
	Text   string
	Msg    string
}

// target binds the named puzzle, or says why it cannot: not a puzzle
// (400), being built (503), not in the catalog (404).
func (s *Server) target(r *request) (*query.Target, error) {
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
		if u, unfinished, err := build.Status(r.ctx, s.cat, s.path, p); err == nil && unfinished {
			return nil, errorf(http.StatusServiceUnavailable, "%s", describe(u))
		}
		return nil, errorf(http.StatusNotFound, "%s is not in this catalog", p)
	}
	return query.NewTarget(r.ctx, s.cat, p, rec)
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
	"list":  func(v ...int) []int { return v },
	"pct":   func(share float64) float64 { return 100 * share },
}

// comma writes a count with thousands separators.
func comma(v int64) string {
	s := strconv.FormatInt(v, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

var _ io.Writer = (*bytes.Buffer)(nil)

// describe says how far an unfinished build is; its page appears when the
// build ends.
func describe(u build.Unfinished) string {
	resume := "solcat build " + u.Puzzle
	if u.CountOnly {
		resume += " --count-only"
	}
	return u.Describe(u.Resume(resume))
}
