package wire

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Scope is where a remembered grant lives.
type Scope string

// The scopes, narrowest first.
const (
	ScopeRun     Scope = "run"     // in memory for this run
	ScopeProject Scope = "project" // .sentinel/templates.toml
	ScopeUser    Scope = "user"    // templates.toml in the user config directory
)

// Match is what a template matches on — exactly one field is set.
type Match struct {
	Prefix []string `toml:"prefix,omitempty" json:"prefix,omitempty"` // shell: argv token prefix
	Exact  []string `toml:"exact,omitempty" json:"exact,omitempty"`   // shell: exact argv
	Path   string   `toml:"path,omitempty" json:"path,omitempty"`     // write/edit: glob inside the workspace
	Host   string   `toml:"host,omitempty" json:"host,omitempty"`     // net: exact host[:port]
	// ProgramSHA256 binds a prefix or exact match to the content of the
	// workspace script it runs, as it was when remembered (see
	// approvals/program.go).
	ProgramSHA256 string `toml:"program_sha256,omitempty" json:"program_sha256,omitempty"`
}

// GrantSpec is what the person chose when remembering.
type GrantSpec struct {
	Scope   Scope
	Match   Match
	Expires time.Duration // 0 means never
	// Also are further matches remembered with Match, in the same scope and
	// for as long: the other hosts of a package registry preset
	// (approvals/registries.toml). Each becomes its own template.
	Also []Match
}

// String shows the match as a person would type it.
func (m Match) String() string {
	switch {
	case m.Prefix != nil:
		return "prefix " + QuoteArgv(m.Prefix) + m.programNote()
	case m.Exact != nil:
		return "exact " + QuoteArgv(m.Exact) + m.programNote()
	case m.Path != "":
		return "path " + m.Path
	case m.Host != "":
		return "host " + m.Host
	}
	return "(nothing)"
}

func (m Match) programNote() string {
	if m.ProgramSHA256 == "" {
		return ""
	}
	return " (while " + m.ProgramFile() + " is unchanged)"
}

// QuoteArgv writes argv as one shell line, single-quoting each word that
// is empty or holds a shell metacharacter.
func QuoteArgv(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\n'\"\\$`;&|<>()*?[]{}~#!") {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		} else {
			q[i] = a
		}
	}
	return strings.Join(q, " ")
}

// Validate reports a match that sets not exactly one field, or a field that
// can never match safely.
func (m Match) Validate() error {
	n := 0
	if m.Prefix != nil {
		n++
		if len(m.Prefix) == 0 || m.Prefix[0] == "" {
			return errors.New("prefix must name at least the program")
		}
	}
	if m.Exact != nil {
		n++
		if len(m.Exact) == 0 || m.Exact[0] == "" {
			return errors.New("exact must name at least the program")
		}
	}
	if m.Path != "" {
		n++
		if err := validGlob(m.Path); err != nil {
			return err
		}
	}
	if m.Host != "" {
		n++
		if _, _, err := MatchHost(m.Host); err != nil {
			return err
		}
	}
	if n != 1 {
		return fmt.Errorf("a template sets exactly one of prefix, exact, path, host (this one sets %d)", n)
	}
	if m.ProgramSHA256 != "" {
		if m.Prefix == nil && m.Exact == nil {
			return errors.New("program_sha256 binds only a prefix or exact command")
		}
		if len(m.ProgramSHA256) != 64 || strings.Trim(m.ProgramSHA256, "0123456789abcdef") != "" {
			return fmt.Errorf("program_sha256 %q must be 64 lowercase hex digits (or remove the line to drop the binding)", m.ProgramSHA256)
		}
	}
	return nil
}

func validGlob(g string) error {
	if filepath.IsAbs(g) || strings.HasPrefix(g, "~") {
		return fmt.Errorf("path %q must be relative to the workspace (like 'src/**/*.go')", g)
	}
	for _, seg := range strings.Split(g, "/") {
		if seg == ".." {
			return fmt.Errorf("path %q must stay inside the workspace (no '..')", g)
		}
		if seg == "**" {
			continue
		}
		if _, err := path.Match(seg, ""); err != nil {
			return fmt.Errorf("path %q: bad glob segment %q", g, seg)
		}
	}
	return nil
}

// MatchHost reads a host match: "host" or "host:port" ("[v6]:port" too),
// the host lower-cased.
func MatchHost(hp string) (string, int, error) {
	if hp == "" || strings.ContainsAny(hp, "/ *") {
		return "", 0, fmt.Errorf("host %q must be an exact host or host:port, like 'registry.npmjs.org'", hp)
	}
	if h, p, ok := splitHostPort(hp); ok {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 || n > 65535 {
			return "", 0, fmt.Errorf("host %q: bad port", hp)
		}
		return strings.ToLower(h), n, nil
	}
	return strings.ToLower(strings.Trim(hp, "[]")), 0, nil
}

// interpreters run the file named by their first argument.
var interpreters = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true,
	"python": true, "python3": true, "node": true, "ruby": true, "perl": true, "php": true}

// ProgramFileOf is the file argv runs that may be a workspace script, or "":
// a path outside the system directories, or an interpreter's first argument.
func ProgramFileOf(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	if filepath.Base(argv[0]) != argv[0] && !systemDir(filepath.Dir(argv[0])) {
		return argv[0]
	}
	if interpreters[path.Base(argv[0])] && len(argv) > 1 && argv[1] != "" && argv[1][0] != '-' {
		return argv[1]
	}
	return ""
}

// systemDir says whether programs in dir are the system's (not the coder's
// to rewrite: the sandbox keeps them read-only).
func systemDir(dir string) bool {
	switch filepath.Clean(dir) {
	case "/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin":
		return true
	}
	return false
}

// ProgramFile is the script a prefix or exact match runs, when it names one
// (see ProgramFileOf): remembering it binds the grant to that file's content.
func (m Match) ProgramFile() string {
	return ProgramFileOf(append(append([]string{}, m.Exact...), m.Prefix...))
}
