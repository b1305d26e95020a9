package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/internal/hostbin"
	"github.com/sentinelhq/sentinel/internal/userstate"
)

// Go's build cache is keyed by action ID, but nothing checks that the output
// stored under a key is what that action produces: whoever can write a cache
// can make a later build link code of their choosing. A check running in a
// verification can write the cache it was given, so every verification gets
// a fresh one of its own, removed afterwards, and nothing one verification
// wrote is ever read by another.
//
// A fresh cache means compiling the standard library again each time
// (measured: `go test` of a one-package module took 100–175 s from an empty
// cache on a loaded 2-core machine, against 3 s warm). So the fresh cache
// starts as a copy of a seed that only Sentinel writes, outside any sandbox,
// by testing a module of its own (the Go toolchain and Sentinel's own code
// run, nothing of the project). The seed's files are listed with their
// SHA-256 in a manifest signed with the user's record key; a copy whose
// bytes differ from the manifest is thrown away and the seed rebuilt.

// seedGoFiles is the module Sentinel tests to fill the seed: it imports the
// standard packages most tests pull in, so their compiled forms (and vet's
// facts about them) are in the seed.
var seedGoFiles = map[string]string{
	"go.mod": "module sentinel.invalid/verifyseed\n\ngo 1.21\n",
	"seed.go": `package verifyseed

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

var _ = []any{bufio.NewReader, bytes.NewReader, context.Background, json.Marshal, errors.New,
	fmt.Sprint, io.EOF, http.NewRequest, os.Getenv, exec.Command, filepath.Join, regexp.MustCompile,
	sort.Strings, strconv.Itoa, strings.Fields, sync.NewCond, time.Now}
`,
	"seed_test.go": `package verifyseed

import (
	"net/http/httptest"
	"testing"
)

func TestSeed(t *testing.T) { _ = httptest.NewRecorder() }
`,
}

const seedPurpose = "verify-go-seed"

// checkGoEnv is the go command's settings in a verification's checks, and
// in the seed's build: the build cache's action IDs depend on them.
var checkGoEnv = []string{"GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local", "CI=true"}

// seedManifest names every file of a seed's cache with its digest.
type seedManifest struct {
	GoVersion string            `json:"go_version"`
	Files     map[string]string `json:"files"` // slash path under cache/ → hex SHA-256
	// Packages are the standard packages whose compiled forms and vet
	// facts the seed holds: every dependency of its module and its tests
	// (verify_goseed_tiers.go).
	Packages []string `json:"packages,omitempty"`
}

// privateGoCache makes a Go build cache for one verification: a new
// directory (under parent) holding a checked copy of Sentinel's seed when
// seeded is set and there is a good seed, else empty. The caller removes it.
// need is the standard packages the project imports (nil: not known); the
// smallest seed that holds them all will do (verify_goseed_tiers.go).
// While the seed is still being built (first use of this Go version on this
// machine), wait reports every second how long it has waited.
func privateGoCache(ctx context.Context, parent string, seeded bool, need []string, wait func(time.Duration)) (string, error) {
	sweepStaleGoCaches(parent)
	dir, err := os.MkdirTemp(parent, goCachePattern())
	if err != nil {
		return "", fmt.Errorf("a private Go build cache for verification: %w", err)
	}
	if !seeded {
		return dir, nil
	}
	if base, err := os.UserCacheDir(); err == nil {
		// Before each verification had a cache of its own, all of them shared
		// this one; whatever was planted in it must never be read again.
		_ = os.RemoveAll(filepath.Join(base, "sentinel", "verify-go-build"))
	}
	root, ok := seedRoot()
	if !ok {
		return dir, nil
	}
	start := time.Now()
	seed, err := awaitSeed(ctx, root, need, wait)
	if err != nil {
		return dir, nil // an empty cache: slower, just as safe
	}
	// Copying a hundred megabytes takes seconds on a loaded machine: the
	// wait goes on being said until the copy is done.
	if err := whileSaying(start, wait, func() error { return copySeedFn(seed, dir) }); err != nil {
		// A seed that no longer matches its manifest is gone for good.
		_ = os.RemoveAll(seed.dir)
		_ = os.RemoveAll(dir)
		return os.MkdirTemp(parent, goCachePattern())
	}
	return dir, nil
}

type goSeedDir struct {
	dir      string
	manifest seedManifest
}

// goSeed finds this toolchain's full signed seed under root, building it
// first when there is none.
func goSeed(ctx context.Context, root string) (goSeedDir, error) {
	return goSeedTier(ctx, root, seedTiers[len(seedTiers)-1], nil)
}

// goSeedTier finds this toolchain's signed seed of tier t under root,
// building it first when there is none, starting from the seed from when
// there is one (a smaller tier: what it holds is not worked out again).
func goSeedTier(ctx context.Context, root string, t seedTier, from *goSeedDir) (goSeedDir, error) {
	dir, version, err := seedDirOf(ctx, root, t)
	if err != nil {
		return goSeedDir{}, err
	}
	if s, err := readSeed(dir, version); err == nil {
		return s, nil
	}
	if s, err := dropBadSeed(dir, version); err == nil {
		return s, nil // another process finished it meanwhile
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return goSeedDir{}, err
	}
	// A Sentinel ended mid-build leaves its ~60 MB build behind: the next
	// build removes those whose Sentinel is gone.
	sweepDirsOfGoneProcesses(root, seedBuildPrefix)
	tmp, done, err := newSeedBuildDir(ctx, root) // removed at once if the process ends (EndSeedBuilds)
	if err != nil {
		return goSeedDir{}, err
	}
	defer done()
	if err := buildSeedFn(ctx, tmp, version, t, from); err != nil {
		return goSeedDir{}, err
	}
	if err := os.Rename(tmp, dir); err != nil && !errors.Is(err, fs.ErrExist) && !os.IsExist(err) {
		// Another verification may have built it meanwhile; use theirs if good.
		if _, statErr := os.Stat(dir); statErr != nil {
			return goSeedDir{}, err
		}
	}
	return readSeed(dir, version)
}

// seedMissed is called between a failed read of a seed and the decision
// to remove it; tests finish another process's build there.
var seedMissed = func(dir string) {}

// dropBadSeed removes the seed in dir that could not be read, but only if
// there is one and a second read still fails: a seed that is not there
// yet may be another process's, renamed into place between the two (a
// rename is whole), and is then read, not removed.
func dropBadSeed(dir, version string) (goSeedDir, error) {
	seedMissed(dir)
	if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
		return goSeedDir{}, err
	}
	s, err := readSeed(dir, version)
	if err != nil {
		_ = os.RemoveAll(dir)
	}
	return s, err
}

// seedDirOf is where tier t's seed for the person's go lives under root,
// and that go's version.
func seedDirOf(ctx context.Context, root string, t seedTier) (dir, version string, err error) {
	goBin, err := hostbin.Person("go") // the person's, pinned before any coder acted
	if err != nil {
		return "", "", err
	}
	if version, err = goVersion(ctx, goBin); err != nil {
		return "", "", err
	}
	// The directory is named by the toolchain and the user's record key, so
	// a seed signed with another key is never mistaken for this one.
	sig, err := userstate.Sign(seedPurpose+"-dir", []byte(version))
	if err != nil {
		return "", "", err
	}
	sum := sha256.Sum256([]byte(sig))
	name := hex.EncodeToString(sum[:12])
	if t.name != "" {
		name += "-" + t.name
	}
	return filepath.Join(root, name), version, nil
}

// readSeed loads a seed's manifest and checks its signature.
func readSeed(dir, version string) (goSeedDir, error) {
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return goSeedDir{}, err
	}
	sig, err := os.ReadFile(filepath.Join(dir, "manifest.sig"))
	if err != nil {
		return goSeedDir{}, err
	}
	if !userstate.Verify(seedPurpose, b, strings.TrimSpace(string(sig))) {
		return goSeedDir{}, fmt.Errorf("the Go build cache seed in %s is not signed by this user's key", dir)
	}
	var m seedManifest
	if err := json.Unmarshal(b, &m); err != nil {
		return goSeedDir{}, err
	}
	if m.GoVersion != version || len(m.Files) == 0 {
		return goSeedDir{}, errors.New("the seed is for another Go toolchain")
	}
	return goSeedDir{dir: dir, manifest: m}, nil
}

// buildSeedFn builds a seed; tests count and replace it.
var buildSeedFn = buildSeed

// buildSeed tests Sentinel's own module of tier t with dir/cache as
// GOCACHE, outside the sandbox (nothing of the project runs), starting
// from a copy of the seed from when there is one, then signs what it holds.
func buildSeed(ctx context.Context, dir, version string, t seedTier, from *goSeedDir) error {
	mod := filepath.Join(dir, "module")
	for name, body := range t.files {
		if err := os.MkdirAll(mod, 0o700); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(mod, name), []byte(body), 0o600); err != nil {
			return err
		}
	}
	cache := filepath.Join(dir, "cache")
	ctx, cancel := context.WithTimeout(ctx, 15*time.Minute)
	defer cancel()
	goBin, err := hostbin.Person("go")
	if err != nil {
		return err
	}
	// The environment verification gives checks (checkGoEnv; a check's
	// sandbox shows no go env file), so the same action IDs come out:
	// TestAVerificationAfterTheSeedBuildsNoStandardPackage.
	env := append([]string{"PATH=" + hostbin.PersonPATH(), "HOME=" + os.Getenv("HOME"), "TMPDIR=" + os.TempDir(),
		"GOCACHE=" + cache, "GOENV=off"}, checkGoEnv...)
	goTest := func(env []string) error { return seedGoRuns(ctx, goBin, mod, env) }
	// The seed's package list needs its module, not its build: it is
	// listed while the seed builds (3 s at load 49 that the first
	// verification waited for after it), with a go cache of its own that
	// the build's fallback below cannot remove under it.
	listed := listSeedPackages(ctx, goBin, mod, filepath.Join(dir, "list-cache"), env)
	// From the person's own build cache where it holds what the seed needs
	// (verify_goseed_person.go); from nothing when that fails.
	// A smaller tier's seed first: what it holds is not worked out again.
	prime := func() error {
		if from == nil {
			return nil
		}
		return copySeedFn(*from, cache)
	}
	err = errors.New("no build cache of the person's to seed from")
	if prog := goCacheProgEnv(cache); prog != "" {
		if err = prime(); err == nil {
			err = goTest(append(env, prog))
		}
	}
	if err != nil {
		if err := os.RemoveAll(cache); err != nil {
			return err
		}
		if err := prime(); err != nil {
			return err
		}
		if err := goTest(env); err != nil {
			return err
		}
	}
	l := <-listed
	if l.err != nil {
		return l.err
	}
	pkgs := l.pkgs
	if err := os.RemoveAll(mod); err != nil {
		return err
	}
	if err := os.RemoveAll(filepath.Join(dir, "list-cache")); err != nil {
		return err
	}
	return signSeed(dir, version, cache, pkgs)
}

// signSeed writes the manifest of every file under cache, signed.
func signSeed(dir, version, cache string, pkgs []string) error {
	m := seedManifest{GoVersion: version, Files: map[string]string{}, Packages: pkgs}
	err := filepath.WalkDir(cache, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		sum, err := fileSHA256(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(cache, p)
		m.Files[filepath.ToSlash(rel)] = sum
		return nil
	})
	if err != nil {
		return err
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	sig, err := userstate.Sign(seedPurpose, b)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o600); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "manifest.sig"), []byte(sig+"\n"), 0o600)
}

// copySeedFn is copySeed; a test slows it.
var copySeedFn = copySeed

// copySeed copies exactly the manifest's files into dst, checking each
// one's digest as it goes (no hard links: a check could write through one).
func copySeed(s goSeedDir, dst string) error {
	for rel, want := range s.manifest.Files {
		if strings.Contains(rel, "..") || strings.HasPrefix(rel, "/") {
			return fmt.Errorf("seed manifest names %q", rel)
		}
		to := filepath.Join(dst, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(to), 0o700); err != nil {
			return err
		}
		got, err := copyHashed(filepath.Join(s.dir, "cache", filepath.FromSlash(rel)), to)
		if err != nil {
			return err
		}
		if got != want {
			return fmt.Errorf("seed file %s does not match its manifest", rel)
		}
	}
	return nil
}

func copyHashed(from, to string) (string, error) {
	in, err := os.Open(from)
	if err != nil {
		return "", err
	}
	defer in.Close()
	if st, err := in.Stat(); err != nil || !st.Mode().IsRegular() {
		return "", fmt.Errorf("seed file %s is not a regular file", from)
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	_, err = io.Copy(io.MultiWriter(out, h), in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return hex.EncodeToString(h.Sum(nil)), err
}

func fileSHA256(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
