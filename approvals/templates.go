package approvals

import (
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sentinelhq/sentinel/approvals/wire"
	"github.com/sentinelhq/sentinel/internal/agentutil"
	"github.com/sentinelhq/sentinel/policy"
)

// Template is a remembered approval. It matches on the parsed form of a
// request, never on its raw text.
type Template struct {
	ID    string `json:"id"`
	Scope Scope  `json:"scope"`
	File  string `json:"file,omitempty"` // where it is stored; empty for run scope
	Match Match  `json:"match"`

	// Where it came from.
	Created     time.Time `json:"created"`
	CreatedRun  string    `json:"created_run,omitempty"`
	CreatedFrom string    `json:"created_from,omitempty"` // the request that created it

	Uses     int       `json:"uses"`
	LastUsed time.Time `json:"last_used,omitzero"`
	Expires  time.Time `json:"expires,omitzero"` // zero: never

	// ProxyOnly: a host template that covers only the sandbox's proxy's
	// asks (Adapter ProxyAdapter), never a tool's own request: the brief
	// grant an approved tool call's host gets (hostgrant.go). Run scope.
	ProxyOnly bool `json:"proxy_only,omitempty"`

	// Examples re-checked when the template loads: it must cover every
	// MatchExamples entry and none of NotMatchExamples.
	MatchExamples    []string `json:"match_examples,omitempty"`
	NotMatchExamples []string `json:"not_match_examples,omitempty"`
}

// Kind names what the template applies to.
func (t *Template) Kind() string {
	switch {
	case t.Match.Prefix != nil:
		return "prefix"
	case t.Match.Exact != nil:
		return "exact"
	case t.Match.Path != "":
		return "path"
	case t.Match.Host != "":
		return "host"
	}
	return "empty"
}

func quoteArgv(argv []string) string { return wire.QuoteArgv(argv) }

// splitHostPort reads "host" or "host:port" ("[v6]:port" too).
func splitHostPort(hp string) (string, int, error) { return wire.MatchHost(hp) }

// Expired reports whether the template no longer applies at now.
func (t *Template) Expired(now time.Time) bool {
	return !t.Expires.IsZero() && !now.Before(t.Expires)
}

// CoversPart reports whether the template covers one simple command. A part
// with anything the template cannot have seen — a substitution, a variable,
// a redirection to a file — is never covered.
func (t *Template) CoversPart(p policy.Part) bool {
	return coverablePart(p) && t.coversArgv(p.Argv)
}

// coverablePart reports whether any template could cover p: static, as
// written, with no redirection but to /dev/null or a descriptor. It
// depends on the part only, so a decision asks it once per part.
func coverablePart(p policy.Part) bool {
	if p.Argv == nil || p.Dynamic {
		return false
	}
	for _, r := range p.Redirects {
		if !harmlessRedirect(r) {
			return false
		}
	}
	return sameAsWritten(p)
}

// coversArgv matches the template's words against a coverable part's argv.
func (t *Template) coversArgv(argv []string) bool {
	switch {
	case t.Match.Exact != nil:
		return slices.Equal(argv, t.Match.Exact)
	case t.Match.Prefix != nil:
		return len(argv) >= len(t.Match.Prefix) && slices.Equal(argv[:len(t.Match.Prefix)], t.Match.Prefix)
	}
	return false
}

// sameAsWritten reports whether the part's source text is exactly its argv:
// one simple command with no assignments (FOO=1 cmd, env FOO=1 cmd) and no
// wrapper the policy looked through (nice, timeout). A template remembers a
// command, not whatever the policy found inside something else.
func sameAsWritten(p policy.Part) bool {
	if p.Text == "" {
		return false
	}
	switch p.Written {
	case policy.WrittenAsArgv:
		return true // the engine read it so: no second reading
	case policy.WrittenOther:
		return false
	}
	parsed, err := splitCommands(p.Text)
	if err != nil || len(parsed) != 1 || parsed[0].Dynamic {
		return false
	}
	return slices.Equal(parsed[0].Argv, p.Argv)
}

func harmlessRedirect(target string) bool {
	switch target {
	case "/dev/null", "&1", "&2", "1", "2":
		return true
	}
	return false
}

// CoversPath reports whether the template covers a write to abs, which must
// lie inside workspace (after resolving symlinks of its existing ancestors).
func (t *Template) CoversPath(abs, workspace string) bool {
	if t.Match.Path == "" || workspace == "" {
		return false
	}
	rel, ok := insideWorkspace(abs, workspace)
	if !ok {
		return false
	}
	return globMatch(t.Match.Path, rel)
}

// insideWorkspace returns abs relative to workspace, or false when it (or a
// symlinked ancestor) leads outside.
func insideWorkspace(abs, workspace string) (string, bool) {
	if !filepath.IsAbs(abs) {
		return "", false
	}
	ws := filepath.Clean(workspace)
	if r, err := filepath.EvalSymlinks(ws); err == nil {
		ws = r
	}
	p := agentutil.ResolveExisting(filepath.Clean(abs))
	rel, err := filepath.Rel(ws, p)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// globMatch matches a slash path against a glob where "**" spans any number
// of directories (including none) and other segments use path.Match.
func globMatch(glob, rel string) bool {
	return matchSegs(strings.Split(glob, "/"), strings.Split(rel, "/"))
}

func matchSegs(g, p []string) bool {
	for len(g) > 0 {
		if g[0] == "**" {
			for i := 0; i <= len(p); i++ {
				if matchSegs(g[1:], p[i:]) {
					return true
				}
			}
			return false
		}
		if len(p) == 0 {
			return false
		}
		if ok, err := path.Match(g[0], p[0]); err != nil || !ok {
			return false
		}
		g, p = g[1:], p[1:]
	}
	return len(p) == 0
}

// CoversHost reports whether the template covers a connection to host:port.
// A template without a port covers the web ports (80, 443) only.
func (t *Template) CoversHost(host string, port int) bool {
	if t.Match.Host == "" || host == "" {
		return false
	}
	th, tp, err := splitHostPort(t.Match.Host)
	if err != nil || th != strings.ToLower(strings.TrimSuffix(host, ".")) {
		return false
	}
	if tp == 0 {
		return port == 0 || port == 80 || port == 443
	}
	return port == tp
}

// requestHost returns the host and port a net request names.
func requestHost(req Request) (string, int) { return req.HostPort() }

// requestPath returns the absolute path a write/edit/read request names.
func requestPath(req Request, ctx policy.Context) string {
	p := req.Path
	if p == "" {
		return ""
	}
	if !filepath.IsAbs(p) {
		base := req.Cwd
		if base == "" {
			base = ctx.Cwd
		}
		if base == "" {
			base = ctx.Workspace
		}
		p = filepath.Join(base, p)
	}
	return filepath.Clean(p)
}
