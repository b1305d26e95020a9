package sandbox

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden Seatbelt profiles in testdata/seatbelt")

// sampleProfiles are the profiles the Seatbelt rendering is checked on:
// the Linux plan of a plain `sentinel sandbox run` (DefaultProfile,
// normalized as Prepare does), one with agent state, caches, Sentinel's
// state and a toolchain with a secret inside, and one without network.
func sampleProfiles(t *testing.T) (home string, profiles map[string]Profile) {
	t.Helper()
	root := t.TempDir()
	home = filepath.Join(root, "home")
	ws := filepath.Join(root, "ws")
	for _, d := range []string{ws, filepath.Join(ws, ".git", "hooks"), filepath.Join(home, ".ssh"), filepath.Join(home, ".claude"),
		filepath.Join(home, ".asdf", "installs"), filepath.Join(root, "run", "sock"), filepath.Join(root, "cache", "go-build")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", "/usr/bin:/bin")
	plain := DefaultProfile(ws, home)
	plain.TempDir = filepath.Join(root, "tmp")
	agent := DefaultProfile(ws, home)
	agent.TempDir = filepath.Join(root, "tmp")
	agent.Writable = append(agent.Writable, filepath.Join(home, ".claude"), filepath.Join(root, "cache", "go-build"))
	agent.ReadOnly = append(agent.ReadOnly, filepath.Join(root, "run"), filepath.Join(root, "run", "sock"))
	agent.Readable = append(agent.Readable, filepath.Join(home, ".asdf"))
	agent.Hidden = append(agent.Hidden, filepath.Join(home, ".asdf", "credentials"), filepath.Join(ws, ".env.secret"))
	offline := agent
	offline.Net = NetNone
	profiles = map[string]Profile{"plain": plain, "agent": agent, "offline": offline}
	for name, p := range profiles {
		np, err := p.normalize()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		profiles[name] = np
	}
	return home, profiles
}

// Every path the Linux plan hides is unreadable and unwritable under the
// Seatbelt profile, every writable root is writable, protected paths and
// Sentinel's state are readable and never written, and nothing else is
// writable.
func TestSeatbeltProfileIsTheLinuxPlan(t *testing.T) {
	home, profiles := sampleProfiles(t)
	for name, p := range profiles {
		t.Run(name, func(t *testing.T) {
			sb, err := renderSeatbelt(PlanOf(p, nil), home, 4242)
			if err != nil {
				t.Fatal(err)
			}
			rules, def := parseSB(t, sb)
			if def {
				t.Fatal("the profile does not deny by default")
			}
			may := func(op, path string) (bool, string) { return sbDecide(t, rules, def, op, path) }
			hidden := slices.Clone(p.Hidden)
			for _, c := range credentialPaths {
				hidden = append(hidden, filepath.Join(home, c))
			}
			hidden = append(hidden, systemHidden...)
			for _, h := range hidden {
				for _, path := range []string{h, filepath.Join(h, "id_ed25519")} {
					for _, op := range []string{"file-read-data", "file-read-metadata", "file-write-data", "file-write-create", "file-write-unlink"} {
						if ok, by := may(op, path); ok {
							t.Errorf("%s on hidden %s is allowed by %s", op, path, by)
						}
					}
				}
			}
			writable := append([]string{p.Workspace, p.TempDir}, p.Writable...)
			for _, w := range writable {
				for _, op := range []string{"file-write-create", "file-write-data", "file-read-data"} {
					if ok, by := may(op, filepath.Join(w, "f")); !ok {
						t.Errorf("%s in writable root %s is denied (%s)", op, w, by)
					}
				}
			}
			for _, r := range append(slices.Clone(p.Protected), p.ReadOnly...) {
				if ok, by := may("file-read-data", filepath.Join(r, "f")); !ok {
					t.Errorf("read of read-only %s is denied (%s)", r, by)
				}
				for _, path := range []string{r, filepath.Join(r, "f")} {
					if ok, by := may("file-write-create", path); ok {
						t.Errorf("write to read-only %s is allowed by %s", path, by)
					}
				}
				// The directory leading to a protected path inside a writable
				// root cannot be renamed away (then replaced by a writable copy).
				for _, w := range writable {
					if d := filepath.Dir(r); d != w && within(d, w) {
						if ok, by := may("file-write-unlink", d); ok {
							t.Errorf("renaming %s (above read-only %s) is allowed by %s", d, r, by)
						}
					}
				}
			}
			// Nothing else: probe the places a coder would try, and check that
			// every rule granting a write names a writable root or a device.
			for _, path := range []string{"/", home, filepath.Join(home, "x"), filepath.Join(home, ".zshrc"), "/usr/bin/x", "/usr/local/bin/x",
				"/opt/homebrew/bin/x", "/private/etc/hosts", "/etc/hosts", "/private/tmp/x", "/tmp/x", "/private/var/folders/x",
				"/Applications/x", "/Library/LaunchAgents/x", filepath.Join(home, "Library/LaunchAgents/x"), filepath.Dir(p.Workspace) + "/x",
				filepath.Join(home, ".asdf", "x")} {
				if slices.ContainsFunc(writable, func(w string) bool { return within(path, w) }) {
					continue
				}
				for _, op := range []string{"file-write-create", "file-write-data", "file-write-unlink"} {
					if ok, by := may(op, path); ok {
						t.Errorf("%s on %s, outside every writable root, is allowed by %s", op, path, by)
					}
				}
			}
			devices := []string{`(literal "/dev/null")`, `(literal "/dev/tty")`, `(literal "/dev/ptmx")`, `(regex "#^/dev/ttys[0-9]+$")`, `(subpath "/dev/fd")`}
			for _, r := range rules {
				if !r.allow || !slices.ContainsFunc(r.ops, func(o string) bool { return strings.HasPrefix(o, "file-write") }) {
					continue
				}
				for _, f := range r.filters {
					fs := f.String()
					if slices.Contains(devices, fs) {
						continue
					}
					if f.list[0].atom != "subpath" || !slices.ContainsFunc(writable, func(w string) bool { return slices.Contains(sbVariants(w), f.list[1].atom) }) {
						t.Errorf("a write is granted to %s, which is not a writable root of the plan: %s", fs, r.text)
					}
				}
			}
		})
	}
}

// Network: only the proxy's port on loopback and the unix sockets in
// Sentinel's read-only state; no mach-lookup but the listed services; no
// Apple Events; process-info only inside the sandbox.
func TestSeatbeltProfileReachesOnlyWhatItLists(t *testing.T) {
	home, profiles := sampleProfiles(t)
	listed := map[string]bool{}
	for _, s := range seatbeltMachServices {
		listed[s.name] = true
		if s.why == "" {
			t.Errorf("mach service %s is listed without a reason", s.name)
		}
	}
	for name, p := range profiles {
		sb, err := renderSeatbelt(PlanOf(p, nil), home, 4242)
		if err != nil {
			t.Fatal(err)
		}
		rules, _ := parseSB(t, sb)
		sawProxy, sawAppleEvents := false, false
		for _, r := range rules {
			for _, op := range r.ops {
				switch {
				case op == "mach-lookup" || op == "mach*":
					if !r.allow {
						continue
					}
					if len(r.filters) == 0 {
						t.Errorf("%s: a mach-lookup of every service: %s", name, r.text)
					}
					for _, f := range r.filters {
						if f.list[0].atom != "global-name" || !listed[f.list[1].atom] {
							t.Errorf("%s: mach-lookup of an unlisted service %s", name, f)
						}
					}
				case strings.HasPrefix(op, "network") && r.allow:
					if op != "network-outbound" || len(r.filters) == 0 {
						t.Errorf("%s: a network grant beyond the proxy: %s", name, r.text)
					}
					for _, f := range r.filters {
						switch {
						case f.String() == `(remote ip "localhost:4242")` && p.Net == NetProxy:
							sawProxy = true
						case f.list[0].atom == "subpath" && slices.ContainsFunc(p.ReadOnly, func(r string) bool { return slices.Contains(sbVariants(r), f.list[1].atom) }):
						default:
							t.Errorf("%s: network-outbound to %s", name, f)
						}
					}
				case op == "appleevent-send":
					sawAppleEvents = !r.allow
					if r.allow {
						t.Errorf("%s: Apple Events allowed: %s", name, r.text)
					}
				case strings.HasPrefix(op, "process-info") && r.allow:
					if r.text != "(allow process-info* (target same-sandbox))" {
						t.Errorf("%s: process-info beyond the sandbox: %s", name, r.text)
					}
				case op == "default" || op == "user-preference-read" || op == "ipc-posix-shm" || op == "system-socket":
					t.Errorf("%s: %s is granted: %s", name, op, r.text)
				}
			}
		}
		if sawProxy != (p.Net == NetProxy) {
			t.Errorf("%s (net %s): the proxy's port granted = %v", name, p.Net, sawProxy)
		}
		if !sawAppleEvents {
			t.Errorf("%s: appleevent-send is not denied outright", name)
		}
	}
}

// The rendered profiles, read line by line by a reviewer, are kept in
// testdata/seatbelt (refresh with go test ./sandbox -run SeatbeltGolden -update).
func TestSeatbeltGolden(t *testing.T) {
	home := "/Users/u"
	ws := "/Users/u/src/proj"
	p := Profile{Workspace: ws} // as DefaultProfile and normalize make it, without this machine's PATH and toolchains
	for _, c := range credentialPaths {
		p.Hidden = append(p.Hidden, filepath.Join(home, c))
	}
	for _, n := range protectedNames {
		p.Protected = append(p.Protected, filepath.Join(ws, n))
	}
	p.Readable = []string{"/opt/homebrew/bin", "/Users/u/.asdf", "/Users/u/.local/share/mise"}
	p.Hidden = append(p.Hidden, "/Users/u/.asdf/credentials")
	p.Hidden = append(p.Hidden, systemHidden...)
	p.TempDir = "/private/var/folders/xy/T/sentinel-1"
	p.Writable = []string{"/Users/u/.claude", "/Users/u/.claude.json", "/Users/u/Library/Caches/sentinel/proj/go-build"}
	p.ReadOnly = []string{"/Users/u/src/proj/.sentinel", "/Users/u/src/proj/.sentinel/runs/r1"}
	for _, c := range []struct {
		name string
		net  NetMode
		port int
	}{{"proxy", NetProxy, 53123}, {"offline", NetNone, 0}} {
		p.Net = c.net
		sb, err := renderSeatbelt(PlanOf(p, nil), home, c.port)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join("testdata", "seatbelt", c.name+".sb")
		if *updateGolden {
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(sb), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatalf("%v (create it with -update)", err)
		}
		if string(want) != sb {
			t.Errorf("%s differs from the rendered profile (review the change, then -update):\n%s", file, sb)
		}
	}
}

func TestSeatbeltRefusesAPathItCannotSpell(t *testing.T) {
	_, err := renderSeatbelt(Plan{Writable: []string{"/Users/u/ws\n(allow default)"}}, "", 0)
	if err == nil || !strings.Contains(err.Error(), "control character") {
		t.Fatalf("a newline in a path: %v, want a refusal", err)
	}
	sb, err := renderSeatbelt(Plan{Writable: []string{`/Users/u/we"i\rd`}}, "", 0)
	if err != nil || !strings.Contains(sb, `(subpath "/Users/u/we\"i\\rd")`) {
		t.Fatalf("quotes and backslashes are not escaped (%v):\n%s", err, sb)
	}
}
