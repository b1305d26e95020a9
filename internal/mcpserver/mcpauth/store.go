package mcpauth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/internal/atomicfile"
	"github.com/sentinelhq/sentinel/internal/filelock"
	"github.com/sentinelhq/sentinel/internal/nofollow"
)

// Client is one registered client (RFC 7591). Its name and redirect URIs
// are the client's own word.
type Client struct {
	ID           string    `json:"id"`
	Name         string    `json:"name"`
	RedirectURIs []string  `json:"redirect_uris"`
	AuthMethod   string    `json:"auth_method"`           // none, client_secret_post or client_secret_basic
	SecretHash   string    `json:"secret_hash,omitempty"` // sha256 of the secret, for confidential clients
	Created      time.Time `json:"created"`
}

// Grant is what the person consented to for one client: its tools, and the
// tokens issued under it (hashes only).
type Grant struct {
	ID       string    `json:"id"`
	ClientID string    `json:"client_id"`
	Scopes   []string  `json:"scopes"`
	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"last_used,omitempty"`

	RefreshHash    string    `json:"refresh_hash"`
	RefreshExpires time.Time `json:"refresh_expires"`
	// Retired are refresh tokens already rotated out: one presented again
	// was stolen or replayed, and ends the grant.
	Retired []string      `json:"retired,omitempty"`
	Access  []AccessToken `json:"access,omitempty"`
}

// AccessToken is one issued access token, by hash.
type AccessToken struct {
	Hash    string    `json:"hash"`
	Expires time.Time `json:"expires"`
	// Scopes are the token's when a refresh asked for fewer than the
	// grant's (RFC 6749 section 6); empty is the grant's. A token never
	// carries a scope its grant lacks (see Server.Verify).
	Scopes []string `json:"scopes,omitempty"`
}

// scopes are what a's bearer may do under g: a's own scopes, each only as
// far as g still grants it.
func (a AccessToken) scopes(g *Grant) []string {
	if len(a.Scopes) == 0 {
		return slices.Clone(g.Scopes)
	}
	var out []string
	for _, sc := range a.Scopes {
		if slices.Contains(g.Scopes, sc) {
			out = append(out, sc)
		}
	}
	return out
}

// state is the file's content.
type state struct {
	Clients map[string]*Client `json:"clients"`
	Grants  map[string]*Grant  `json:"grants"`
}

func newState() *state {
	return &state{Clients: map[string]*Client{}, Grants: map[string]*Grant{}}
}

// Store is the state file, shared between the server and `sentinel mcp
// clients` (another process): every change is made under the file's lock
// on what is on disk now, and a reader reloads when the file changed.
type Store struct {
	path string
	mu   sync.Mutex
	st   *state
	seen fs.FileInfo
}

// OpenStore opens (or starts) the state file at path.
func OpenStore(path string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("oauth state %s: %w", path, err)
	}
	s := &Store{path: path, st: newState()}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.reload(); err != nil {
		return nil, err
	}
	return s, nil
}

// Path is where the state lives.
func (s *Store) Path() string { return s.path }

// reload reads the file when it is not what was read last. s.mu is held.
func (s *Store) reload() error {
	fi, err := os.Lstat(s.path)
	if errors.Is(err, fs.ErrNotExist) {
		s.st, s.seen = newState(), nil
		return nil
	}
	if err != nil {
		return fmt.Errorf("oauth state %s: %w", s.path, err)
	}
	if s.seen != nil && os.SameFile(fi, s.seen) && fi.ModTime().Equal(s.seen.ModTime()) && fi.Size() == s.seen.Size() {
		return nil
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("oauth state %s is not a regular file: remove it (every client then registers again)", s.path)
	}
	f, err := nofollow.OpenFile(s.path, os.O_RDONLY, 0)
	if err != nil {
		return fmt.Errorf("oauth state %s: %w", s.path, err)
	}
	defer f.Close()
	st := newState()
	if err := json.NewDecoder(f).Decode(st); err != nil {
		return fmt.Errorf("oauth state %s: %v (remove it; every client then registers again)", s.path, err)
	}
	if st.Clients == nil {
		st.Clients = map[string]*Client{}
	}
	if st.Grants == nil {
		st.Grants = map[string]*Grant{}
	}
	s.st, s.seen = st, fi
	return nil
}

// view runs fn on the current state (reloaded if the file changed).
func (s *Store) view(fn func(*state) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.reload(); err != nil {
		return err
	}
	return fn(s.st)
}

// update runs fn on the state as it is on disk, under the file's lock, and
// writes the result (0600). fn's error leaves the file as it was.
func (s *Store) update(fn func(*state) error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	lf, err := nofollow.OpenFile(s.path+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("oauth state %s: %w", s.path, err)
	}
	defer lf.Close()
	if err := filelock.Lock(lf); err != nil {
		return fmt.Errorf("oauth state %s: %w", s.path, err)
	}
	defer filelock.Unlock(lf)
	s.seen = nil // read what is there now, whatever the stamp says
	if err := s.reload(); err != nil {
		return err
	}
	if err := fn(s.st); err != nil {
		s.seen = nil
		return err
	}
	b, err := json.MarshalIndent(s.st, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.Write(s.path, b, 0o600); err != nil {
		return fmt.Errorf("oauth state %s: %w", s.path, err)
	}
	s.seen = nil
	return s.reload()
}

// ClientView is a client and its grant, for `sentinel mcp clients`.
type ClientView struct {
	Client
	Granted  []string // tools, empty when never consented
	LastUsed time.Time
}

// Clients lists the registered clients, oldest first.
func (s *Store) Clients() ([]ClientView, error) {
	var out []ClientView
	err := s.view(func(st *state) error {
		for _, c := range st.Clients {
			v := ClientView{Client: *c}
			for _, g := range st.Grants {
				if g.ClientID == c.ID {
					v.Granted = append(v.Granted, g.Scopes...)
					if g.LastUsed.After(v.LastUsed) {
						v.LastUsed = g.LastUsed
					}
				}
			}
			out = append(out, v)
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Created.Before(out[j].Created) })
	return out, err
}

// ErrNoClient is a client id the state does not hold.
var ErrNoClient = errors.New("no such client")

// Revoke removes a client, its grants and every token issued to it.
func (s *Store) Revoke(clientID string) error {
	return s.update(func(st *state) error {
		if st.Clients[clientID] == nil {
			return fmt.Errorf("%w %q (list them with sentinel mcp clients)", ErrNoClient, clientID)
		}
		delete(st.Clients, clientID)
		for id, g := range st.Grants {
			if g.ClientID == clientID {
				delete(st.Grants, id)
			}
		}
		return nil
	})
}

// randomToken is 32 random bytes, base64url, after a prefix that says what
// it is.
func randomToken(prefix string) string {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("crypto/rand: " + err.Error()) // never fails on supported systems
	}
	return prefix + base64.RawURLEncoding.EncodeToString(b[:])
}

// hashToken is how a token is kept: its sha256, never the token.
func hashToken(t string) string {
	h := sha256.Sum256([]byte(t))
	return hex.EncodeToString(h[:])
}
