package web

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/sentinelhq/sentinel/internal/atomicfile"
	"github.com/sentinelhq/sentinel/internal/filelock"
	"github.com/sentinelhq/sentinel/internal/textsafe"
	"github.com/sentinelhq/sentinel/internal/userstate"
)

// Devices is the paired devices and the pairing codes not yet used, kept
// in the user's state dir (web/devices.json, 0600). Only hashes are
// stored: a code or token is shown once, to the person who made it.
type Devices struct {
	path string
	now  func() time.Time
}

// PairTTL is how long a pairing code may be used.
const PairTTL = 10 * time.Minute

// Device is one paired device.
type Device struct {
	Name   string    `json:"name"`
	Hash   string    `json:"hash"` // sha256 of the device token
	Paired time.Time `json:"paired"`
}

type pairing struct {
	Hash    string    `json:"hash"`
	Expires time.Time `json:"expires"`
}

type deviceFile struct {
	Devices  []Device  `json:"devices"`
	Pairings []pairing `json:"pairings"`
}

// OpenDevices is the store in the user's state dir.
func OpenDevices() (*Devices, error) {
	dir, err := userstate.Dir()
	if err != nil {
		return nil, err
	}
	dir = filepath.Join(dir, "web")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	return &Devices{path: filepath.Join(dir, "devices.json"), now: time.Now}, nil
}

// NewPairCode makes a one-time pairing code, valid for PairTTL.
func (d *Devices) NewPairCode() (string, error) {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	code := base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b[:])
	err := d.update(func(f *deviceFile) error {
		f.Pairings = append(f.Pairings, pairing{Hash: hashOf(code), Expires: d.now().Add(PairTTL).UTC()})
		return nil
	})
	return code, err
}

// nameShape is compiled on first use: nothing compiles at start-up.
var nameShape = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$`) })

// CheckName says whether name may name a device.
func CheckName(name string) error {
	if !nameShape().MatchString(name) {
		return fmt.Errorf("device name %q: use 1-40 letters, digits, '.', '_' or '-' (e.g. phone)", clip(name, 40))
	}
	return nil
}

// ErrBadCode is a pairing code that is unknown, used or expired.
var ErrBadCode = errors.New("this pairing code is unknown, used or expired: run sentinel service pair for a new one")

// Pair uses code (once) to pair a device named name, and returns its token.
func (d *Devices) Pair(code, name string) (string, error) {
	if err := CheckName(name); err != nil {
		return "", err
	}
	var tb [32]byte
	if _, err := rand.Read(tb[:]); err != nil {
		return "", err
	}
	token := base64.RawURLEncoding.EncodeToString(tb[:])
	err := d.update(func(f *deviceFile) error {
		h, now := hashOf(strings.ToUpper(strings.TrimSpace(code))), d.now()
		i := slices.IndexFunc(f.Pairings, func(p pairing) bool {
			return subtle.ConstantTimeCompare([]byte(p.Hash), []byte(h)) == 1 && now.Before(p.Expires)
		})
		if i < 0 {
			return ErrBadCode
		}
		f.Pairings = slices.Delete(f.Pairings, i, i+1)
		if slices.ContainsFunc(f.Devices, func(x Device) bool { return x.Name == name }) {
			return fmt.Errorf("a device is already named %s: pick another name, or revoke it first (sentinel service devices revoke %s)", name, name)
		}
		f.Devices = append(f.Devices, Device{Name: name, Hash: hashOf(token), Paired: now.UTC()})
		return nil
	})
	if err != nil {
		return "", err
	}
	return token, nil
}

// Device is the device token belongs to; a revoked or unknown token is none.
func (d *Devices) Device(token string) (Device, bool) {
	if token == "" {
		return Device{}, false
	}
	f, err := d.read()
	if err != nil {
		return Device{}, false
	}
	h := hashOf(token)
	for _, x := range f.Devices {
		if subtle.ConstantTimeCompare([]byte(x.Hash), []byte(h)) == 1 {
			return x, true
		}
	}
	return Device{}, false
}

// Still says whether d is still paired (not revoked since it was looked up).
func (d *Devices) Still(dev Device) bool {
	f, err := d.read()
	if err != nil {
		return false
	}
	return slices.ContainsFunc(f.Devices, func(x Device) bool { return x.Hash == dev.Hash })
}

// List is the paired devices, in pairing order.
func (d *Devices) List() ([]Device, error) {
	f, err := d.read()
	return f.Devices, err
}

// Revoke unpairs the device named name: its token stops working at once.
func (d *Devices) Revoke(name string) error {
	return d.update(func(f *deviceFile) error {
		i := slices.IndexFunc(f.Devices, func(x Device) bool { return x.Name == name })
		if i < 0 {
			return fmt.Errorf("no device is named %q (sentinel service devices lists them)", clip(name, 40))
		}
		f.Devices = slices.Delete(f.Devices, i, i+1)
		return nil
	})
}

func (d *Devices) read() (deviceFile, error) {
	var f deviceFile
	b, err := os.ReadFile(d.path)
	if errors.Is(err, os.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return f, fmt.Errorf("%s: %w (remove it and pair again)", d.path, err)
	}
	return f, nil
}

// update changes the file under a lock, dropping expired pairings.
func (d *Devices) update(change func(*deviceFile) error) error {
	lf, err := os.OpenFile(d.path+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer lf.Close()
	if err := filelock.Lock(lf); err != nil {
		return err
	}
	defer filelock.Unlock(lf)
	f, err := d.read()
	if err != nil {
		return err
	}
	now := d.now()
	f.Pairings = slices.DeleteFunc(f.Pairings, func(p pairing) bool { return !now.Before(p.Expires) })
	if err := change(&f); err != nil {
		if errors.Is(err, ErrBadCode) {
			_ = d.write(f)
		}
		return err
	}
	return d.write(f)
}

func (d *Devices) write(f deviceFile) error {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(d.path, b, 0o600)
}

func hashOf(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// clip is s cut to at most n runes.
func clip(s string, n int) string { return textsafe.Clip(s, n) }
