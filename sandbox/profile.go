package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/sentinelhq/sentinel/sandbox/inside"
)

// credentialPaths are the credential locations SECURITY.md names, relative
// to a home directory. Every profile hides them.
var credentialPaths = []string{
	".ssh", ".aws", ".azure", ".kube", ".config/gh", ".gnupg", ".password-store",
	".docker", ".netrc", ".git-credentials",
	".config/gcloud", ".config/google-chrome", ".config/chromium",
	".mozilla", ".config/BraveSoftware", ".pki",
	".config/sentinel", // Sentinel's user config holds supervisor model keys
}

// systemHidden are machine-wide secrets hidden even when the caller is root.
var systemHidden = []string{"/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/ssh"}

// protectedNames are paths inside the workspace that stay read-only even
// though the workspace is writable: they run code later, outside the sandbox.
var protectedNames = []string{".git/hooks", ".git/config"}

// DefaultProfile is what a generic command (`sentinel sandbox run`) faces:
// the workspace writable, a private temp dir, system locations, the
// directories on PATH and the person's toolchains under home readable
// (DetectToolchains), credentials under home hidden, .git hooks and config
// protected, network only through the proxy.
func DefaultProfile(workspace, home string) Profile {
	p := Profile{Workspace: workspace, Net: NetProxy}
	for _, c := range credentialPaths {
		p.Hidden = append(p.Hidden, filepath.Join(home, c))
	}
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		// A PATH entry at or above /dev or /tmp is not shown (it would cover
		// the sandbox's own); the rest of PATH still is.
		if filepath.IsAbs(d) && coversPrivateMount(resolve(filepath.Clean(d))) == "" {
			p.Readable = append(p.Readable, d)
		}
	}
	for _, n := range protectedNames {
		p.Protected = append(p.Protected, filepath.Join(workspace, n))
	}
	return p.withToolchains(DetectToolchains(home, os.Getenv))
}

// normalize checks a profile and returns a copy with absolute, cleaned paths
// (symlinks resolved where they exist, so mounts and rules hit the real
// inode) and the system hidden paths added.
func (p Profile) normalize() (Profile, error) {
	if p.Workspace == "" {
		return p, fmt.Errorf("sandbox profile: no workspace; pass --workspace DIR")
	}
	var err error
	clean := func(what string, in []string) []string {
		var out []string
		for _, s := range in {
			if err != nil {
				return nil
			}
			if !filepath.IsAbs(s) {
				err = fmt.Errorf("sandbox profile: %s path %q is not absolute; give a full path", what, s)
				return nil
			}
			s = resolve(filepath.Clean(s))
			if !slices.Contains(out, s) {
				out = append(out, s)
			}
		}
		return out
	}
	ws := clean("workspace", []string{p.Workspace})
	if err != nil {
		return p, err
	}
	st, serr := os.Stat(ws[0])
	if serr != nil || !st.IsDir() {
		return p, fmt.Errorf("sandbox profile: workspace %s is not a directory; create it or pass another --workspace", p.Workspace)
	}
	p.Workspace = ws[0]
	p.Writable = clean("writable", p.Writable)
	p.AgentState = clean("agent state", p.AgentState)
	p.links = readableLinks(p.Readable)
	p.Readable = clean("readable", p.Readable)
	p.Hidden = clean("hidden", append(slices.Clone(p.Hidden), systemHidden...))
	p.Protected = clean("protected", p.Protected)
	p.ReadOnly = clean("read-only", p.ReadOnly)
	if err != nil {
		return p, err
	}
	if err := checkDeniedEntries(p.DeniedExecutables); err != nil {
		return p, err
	}
	if p, err = p.protectPersonGoCache(); err != nil {
		return p, err
	}
	if p.Overlay, err = normalizeOverlay(p.Overlay, p.Workspace); err != nil {
		return p, err
	}
	if p.Places, err = normalizePlaces(p.Places, p.Workspace, p.Writable); err != nil {
		return p, err
	}
	if err := checkAgentState(p.AgentState, p.Workspace, p.Writable); err != nil {
		return p, err
	}
	for _, list := range []struct {
		what  string
		paths []string
	}{{"readable", p.Readable}, {"writable", p.Writable}} {
		for _, d := range list.paths {
			if covers := coversPrivateMount(d); covers != "" {
				return p, fmt.Errorf("sandbox profile: %s path %s would cover the sandbox's own %s; name a narrower directory", list.what, d, covers)
			}
		}
	}
	if p.Workspace == "/" || p.Workspace == resolve(os.Getenv("HOME")) {
		return p, fmt.Errorf("sandbox profile: workspace %s would expose too much; use a project directory", p.Workspace)
	}
	if p.Net == "" {
		p.Net = NetProxy
	}
	switch p.Net {
	case NetProxy, NetNone, NetHost:
	default:
		return p, fmt.Errorf("sandbox profile: unknown network mode %q; use proxy or none", p.Net)
	}
	for _, h := range p.AllowHosts {
		if _, _, herr := splitAllowHost(h); herr != nil {
			return p, herr
		}
	}
	return p, nil
}

// privateMounts are what the sandbox builds for itself: a minimal /dev (no
// host device or stray socket), a private /tmp, and the system locations
// mounted as they are. A profile path at or above one of them would lay the
// host's over the sandbox's (readable = ["/"] made /dev/null read-only and
// showed every host socket).
var privateMounts = []string{"/dev", "/tmp"}

// coversPrivateMount names the private mount d would cover, or "".
func coversPrivateMount(d string) string {
	if d == "/" {
		return "root filesystem"
	}
	for _, m := range privateMounts {
		if within(resolve(m), d) {
			return m
		}
	}
	return ""
}

// within reports whether path is root or lies beneath it.
func within(path, root string) bool { return inside.Within(path, root) }

// evalSymlinks is filepath.EvalSymlinks; a test counts the calls.
var evalSymlinks = filepath.EvalSymlinks

// resolve follows symlinks when the path exists, so a rule or mount names
// the real location.
func resolve(path string) string {
	if r, err := evalSymlinks(path); err == nil {
		return r
	}
	return path
}
