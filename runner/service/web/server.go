package web

import (
	"context"
	"crypto/tls"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// Queue is what the page needs of the service's approval queue
// (*queue.Queue): its waiting requests, its runs, its one answer path and
// its changes.
type Queue interface {
	List() []queue.Entry
	Statuses() []queue.RunStatus
	AnswerNoted(queue.Answer) (queue.Answered, error)
	Watch(ctx context.Context, send func(queue.Event) error) error
}

// Options configure a Server.
type Options struct {
	Queue   Queue
	Devices *Devices
	// Journal receives a line for every answer, with the device's name; nil: none.
	Journal *journal.Journal
	// Push is where a card's notification goes; empty URL: none.
	Push Push
	// PublicURL is the page's address as the phone reaches it (a tunnel,
	// a tailnet name), for pushes and pairing links; default: the
	// address it listens on.
	PublicURL string
	// Log records what goes wrong in the background (a failed push).
	Log func(string)
	// Client sends pushes (default: a plain client with a timeout).
	Client *http.Client
	// TLSCert and TLSKey are the person's certificate and key files (PEM):
	// with them the page is served over HTTPS only; without, plain HTTP,
	// for loopback or behind the person's own TLS tunnel or tailnet.
	TLSCert, TLSKey string
}

// Server is the page, its pairing and its push answers.
type Server struct {
	opts   Options
	now    func() time.Time
	client *http.Client
	tmpl   *template.Template
	used   usedNonces
	limits limits
	base   atomic.Value // string: the listening URL, once Serve listens

	tailMu sync.Mutex
	tails  map[string]*tail
}

//go:embed assets
var assets embed.FS

// New makes a Server.
func New(o Options) (*Server, error) {
	if o.Queue == nil || o.Devices == nil {
		return nil, errors.New("web: a queue and a device store are needed")
	}
	s := &Server{opts: o, now: time.Now, client: o.Client, tails: map[string]*tail{}}
	t, err := s.templates()
	if err != nil {
		return nil, err
	}
	s.tmpl = t
	if s.client == nil {
		s.client = &http.Client{Timeout: 10 * time.Second}
	}
	s.base.Store(strings.TrimRight(o.PublicURL, "/"))
	return s, nil
}

// templates are the page's, from the binary.
func (s *Server) templates() (*template.Template, error) {
	return template.New("").Funcs(template.FuncMap{"shown": func(s string) Shown { return Line(s) }}).ParseFS(assets, "assets/*.html")
}

// baseURL is where the page is reached, for links the server makes.
func (s *Server) baseURL() string { return s.base.Load().(string) }

func (s *Server) logf(format string, a ...any) {
	if s.opts.Log != nil {
		s.opts.Log(fmt.Sprintf(format, a...))
	}
}

// Handler is the page's routes, behind the headers, the rate limits and
// the same-origin check every route gets.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.authed(s.index))
	mux.HandleFunc("GET /events", s.authed(s.events))
	mux.HandleFunc("POST /answer", s.authed(s.answer))
	mux.HandleFunc("GET /pair", s.pairPage)
	mux.HandleFunc("POST /pair", s.pair)
	mux.HandleFunc("POST /push/{token}", s.pushAnswer)
	mux.HandleFunc("GET /static/{file}", s.static)
	cop := http.NewCrossOriginProtection()
	if u, err := url.Parse(s.opts.PublicURL); err == nil && u.Scheme != "" && u.Host != "" {
		// behind the person's tunnel the Host the page sees may not be the one the phone used
		_ = cop.AddTrustedOrigin(u.Scheme + "://" + u.Host)
	}
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.limits.failed(r)
		http.Error(w, "refused: this request comes from another origin", http.StatusForbidden)
	}))
	return s.headers(s.limits.wrap(cop.Handler(mux)))
}

// headers sets what every answer carries: a strict policy (scripts only
// with this page's nonce, from this origin; no inline script or style, no
// frames, forms only to this origin), no caching, no sniffing, no referrer.
func (s *Server) headers(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'none'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
		next.ServeHTTP(w, r)
	})
}

// Serve listens on addr (loopback unless the person says otherwise) until
// ctx ends; ready, if set, hears the URL it listens on.
func (s *Server) Serve(ctx context.Context, addr string, ready func(url string)) error {
	var cert tls.Certificate
	if s.opts.TLSCert != "" || s.opts.TLSKey != "" {
		var err error
		if cert, err = tls.LoadX509KeyPair(s.opts.TLSCert, s.opts.TLSKey); err != nil {
			return fmt.Errorf("the page's certificate ([service] web_cert %q, web_key %q): %w (give a PEM certificate and its key, or neither for plain HTTP)", s.opts.TLSCert, s.opts.TLSKey, err)
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("the page cannot listen on %s: %w (pick another with --listen HOST:PORT)", addr, err)
	}
	url := "http://" + ln.Addr().String()
	if cert.Certificate != nil {
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
		url = "https://" + strings.TrimPrefix(url, "http://")
	}
	if s.baseURL() == "" {
		s.base.Store(url)
	}
	if ready != nil {
		ready(url)
	}
	srv := &http.Server{Handler: s.Handler(), ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: 16 << 10,
		BaseContext: func(net.Listener) context.Context { return ctx }}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// static serves the embedded script and style sheet, nothing else.
func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("file")
	var ctype string
	switch name {
	case "app.js":
		ctype = "text/javascript; charset=utf-8"
	case "app.css":
		ctype = "text/css; charset=utf-8"
	default:
		http.NotFound(w, r)
		return
	}
	b, err := assets.ReadFile("assets/" + name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", ctype)
	_, _ = w.Write(b)
}
