package approvals

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"

	"github.com/sentinelhq/sentinel/internal/testbin"
	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/sandbox"
)

// TestAGoProxyCardIsOfferedOnlyWhereGoGetCanStore checks #37 point 8 with
// the real sandbox and a real `go get`: a card for Go's module proxy is
// offered exactly when the sandbox the coder runs in lets go write its
// module cache. The sandbox is built the way a run builds it
// (sandbox.DefaultProfile, which finds the module cache with `go env` and
// mounts it read-only), once as is and once with the cache made writable;
// the broker is asked about proxy.golang.org with that sandbox's Sees and
// environment, and `go get` runs inside it against a module proxy on disk
// (GOPROXY=file://…, no network), so what it must do is store the module
// in GOMODCACHE. The test fails if the card is offered while go get cannot
// store there, or refused while it can.
func TestAGoProxyCardIsOfferedOnlyWhereGoGetCanStore(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go on PATH")
	}
	if err := sandbox.Supported(sandbox.ModeAuto); err != nil {
		t.Skipf("no sandbox here: %v", err)
	}
	helper, err := testbin.Sentinel() // the sandbox's helper (the test binary is none)
	if err != nil {
		t.Fatal(err)
	}
	proxyDir := t.TempDir()
	serveTinyModule(t, proxyDir)
	for _, c := range []struct {
		name              string
		writable, missing bool
	}{
		{"module cache read-only", false, false},
		{"module cache writable", true, false},
		// A new machine or user: no ~/go yet, and go's default cache
		// (~/go/pkg/mod) is not there for the sandbox to show; go must
		// create it, and cannot.
		{"no module cache yet", false, true},
	} {
		writable := c.writable
		t.Run(c.name, func(t *testing.T) {
			ws := t.TempDir()
			home := t.TempDir()
			modCache := filepath.Join(t.TempDir(), "mod")
			if c.missing {
				// A fresh HOME=$(mktemp -d) holding the project, as the
				// #37 replay had it: the sandbox shows the project, so
				// HOME is there inside, but not ~/go, and go cannot make it.
				ws = filepath.Join(home, "project")
				if err := os.Mkdir(ws, 0o755); err != nil {
					t.Fatal(err)
				}
				modCache = filepath.Join(home, "go", "pkg", "mod")
				t.Setenv("HOME", home)
				t.Setenv("GOMODCACHE", "")
				t.Setenv("GOPATH", "")
				t.Setenv("GOENV", "off")
			} else {
				if err := os.MkdirAll(modCache, 0o755); err != nil {
					t.Fatal(err)
				}
				t.Setenv("GOMODCACHE", modCache) // what `go env` reports: DefaultProfile mounts it
			}
			if err := os.WriteFile(filepath.Join(ws, "go.mod"), []byte("module example.com/app\n\ngo 1.21\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			p := sandbox.DefaultProfile(ws, home)
			p.Readable = append(p.Readable, proxyDir, filepath.Dir(filepath.Dir(goBin)))
			if writable {
				p.Writable = append(p.Writable, modCache)
			}
			p.Env = append(p.Env, "GOPROXY=file://"+proxyDir, "GOSUMDB=off", "GOFLAGS=-mod=mod",
				"GOCACHE="+filepath.Join(ws, ".gocache"), "GOTOOLCHAIN=local")
			sb, err := sandbox.Prepare(p, sandbox.Options{Mode: sandbox.ModeAuto, Helper: helper})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { sb.Close() })
			if got := getenvOf(sb.Environ(), "GOMODCACHE"); got != modCache {
				t.Fatalf("the sandbox's GOMODCACHE is %q, want %q", got, modCache)
			}
			prof := sb.Profile()

			// The broker, as a run wires it (runner/reach.go).
			var asked atomic.Int32
			decider := DeciderFunc(func(ctx context.Context, pr *Prompt) Decision {
				asked.Add(1)
				return Decision{Outcome: OutcomeAllow, By: "person", Reason: "test"}
			})
			r := startBroker(t, BrokerConfig{Decider: decider, Policy: policy.Default(),
				Context:    policy.Context{Workspace: ws, Cwd: ws, Home: home, Sandboxed: true},
				Sees:       prof.Sees,
				Inside:     func() (Inside, bool) { return Inside{Env: sb.Environ()}, true },
				Registries: func() policy.Registries { return policy.Registries{} }})
			d := ask(t, r.socket, Request{Kind: policy.KindNet, Host: "proxy.golang.org", Port: 443})
			offered := asked.Load() == 1
			t.Logf("proxy.golang.org: offered=%v, %s: %s", offered, d.By, d.Reason)

			// go get, inside the same sandbox.
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang bound
			defer cancel()
			cmd, err := sb.Command(ctx, ws, "go", "get", "example.com/tiny@v1.0.0")
			if err != nil {
				t.Fatal(err)
			}
			out, err := cmd.CombinedOutput()
			stored := err == nil
			if _, serr := os.Stat(filepath.Join(modCache, "cache", "download", "example.com", "tiny", "@v", "v1.0.0.zip")); serr != nil {
				stored = false
			}
			t.Logf("go get in the sandbox: err=%v stored=%v\n%s", err, stored, out)
			switch {
			case offered && !stored:
				t.Fatalf("the card for proxy.golang.org is offered, but go get cannot store in %s:\n%s", modCache, out)
			case !offered && stored:
				t.Fatalf("the card is refused (%s), but go get stores in %s", d.Reason, modCache)
			case !offered && err != nil && !strings.Contains(string(out), "read-only file system"):
				t.Fatalf("go get failed for another reason than the read-only module cache:\n%s", out)
			}
			if offered != writable {
				t.Fatalf("offered=%v with the module cache writable=%v", offered, writable)
			}
		})
	}
}

// serveTinyModule lays out example.com/tiny v1.0.0 under dir as a GOPROXY
// serves it: @v/list, .info, .mod and .zip.
func serveTinyModule(t *testing.T, dir string) {
	t.Helper()
	src := t.TempDir()
	mod := "module example.com/tiny\n\ngo 1.21\n"
	files := map[string]string{"go.mod": mod, "tiny.go": "package tiny\n\nconst Hello = \"hi\"\n"}
	for n, c := range files {
		if err := os.WriteFile(filepath.Join(src, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v := filepath.Join(dir, "example.com", "tiny", "@v")
	if err := os.MkdirAll(v, 0o755); err != nil {
		t.Fatal(err)
	}
	for n, c := range map[string]string{"list": "v1.0.0\n", "v1.0.0.info": `{"Version":"v1.0.0","Time":"2024-01-01T00:00:00Z"}`, "v1.0.0.mod": mod} {
		if err := os.WriteFile(filepath.Join(v, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Create(filepath.Join(v, "v1.0.0.zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := modzip.CreateFromDir(f, module.Version{Path: "example.com/tiny", Version: "v1.0.0"}, src); err != nil {
		t.Fatal(err)
	}
}

func getenvOf(env []string, key string) string {
	return Inside{Env: env}.Getenv(key)
}
