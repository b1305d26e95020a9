package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/sentinelhq/sentinel/internal/userstate"
)

// cookieName holds the device token.
const cookieName = "sentinel_device"

type deviceKey struct{}

// deviceOf is the device an authed handler serves.
func deviceOf(r *http.Request) Device {
	d, _ := r.Context().Value(deviceKey{}).(Device)
	return d
}

// authed serves h only to a paired device: its token, in the cookie the
// pairing set, must be one the store holds now (a revoked one is not).
func (s *Server) authed(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		c, err := r.Cookie(cookieName)
		var d Device
		ok := err == nil
		if ok {
			d, ok = s.opts.Devices.Device(c.Value)
		}
		if !ok {
			if !s.limits.failed(r) {
				tooMany(w)
				return
			}
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte("This device is not paired: run `sentinel service pair` on the machine and open the link it prints.\n"))
			return
		}
		h(w, r.WithContext(context.WithValue(r.Context(), deviceKey{}, d)))
	}
}

// csrfPurpose labels the per-page tokens' HMAC.
const csrfPurpose = "web-page-form-v1"

// pageToken is a new per-page token for the device: a random nonce and its
// HMAC bound to the device, so a page's forms work for that device only.
func pageToken(d Device) string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	n := hex.EncodeToString(b[:])
	sig, err := userstate.Sign(csrfPurpose, []byte(d.Hash+"."+n))
	if err != nil {
		return ""
	}
	return n + "." + sig
}

// checkPageToken says whether tok is a page token made for d.
func checkPageToken(d Device, tok string) bool {
	n, sig, ok := strings.Cut(tok, ".")
	return ok && len(n) == 24 && userstate.Verify(csrfPurpose, []byte(d.Hash+"."+n), sig)
}

// limits are the rate limits per client address: every request draws on
// a generous bucket, and every refusal (a bad token, a bad code, another
// origin) on a small one; an address out of either is refused with 429.
type limits struct {
	mu  sync.Mutex
	per map[string]*clientLimit
}

type clientLimit struct {
	all, fails *rate.Limiter
}

// The limits: requests per second and burst; refusals per minute and burst.
const (
	allRate   = 20
	allBurst  = 60
	failEvery = 6 * time.Second
	failBurst = 10
)

func (l *limits) of(r *http.Request) *clientLimit {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.per == nil || len(l.per) > 4096 {
		l.per = map[string]*clientLimit{}
	}
	c := l.per[host]
	if c == nil {
		c = &clientLimit{all: rate.NewLimiter(allRate, allBurst), fails: rate.NewLimiter(rate.Every(failEvery), failBurst)}
		l.per[host] = c
	}
	return c
}

// failed counts a refusal against r's address; false: the address has
// been refused too often, and is told so instead.
func (l *limits) failed(r *http.Request) bool { return l.of(r).fails.Allow() }

// mayTry says whether r's address may try a credential (a pairing code, a
// push token) now: not while its refusals are used up. A paired device's
// requests are never held back by refusals of others behind the same
// address (a tunnel).
func (l *limits) mayTry(r *http.Request) bool { return l.of(r).fails.Tokens() >= 1 }

func tooMany(w http.ResponseWriter) {
	http.Error(w, "too many refused requests from here: wait a minute", http.StatusTooManyRequests)
}

func (l *limits) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !l.of(r).all.Allow() {
			http.Error(w, "too many requests: wait a moment", http.StatusTooManyRequests)
			return
		}
		next.ServeHTTP(w, r)
	})
}
