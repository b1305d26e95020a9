package mcpserver

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/BurntSushi/toml"
)

// Exec modes.
const (
	ModeAllowlist = "allowlist" // a line runs only when every command in it is allowed by an entry
	ModePolicy    = "policy"    // Sentinel's policy and remembered templates decide; ask goes to a person
	ModeStrict    = "strict"    // allowlist, and only one plain command per line (no lists, pipes, substitutions, redirections)
	// ModeUnrestricted runs any line the policy does not deny: still in the
	// sandbox (writes only to rw paths), still audited.
	ModeUnrestricted = "unrestricted"
)

// Network settings for exec.
const (
	NetNone  = "none"  // no network at all (the default)
	NetProxy = "proxy" // only through Sentinel's proxy, to allow_hosts
)

// Access to a configured path.
const (
	AccessRead      = "r"  // read, list, search, and cwd for exec
	AccessReadWrite = "rw" // also edit, move, copy, delete, chmod, chown; writable by exec
)

// Ops is every tool name, in the order help lists them.
var Ops = []string{"exec", "read", "list", "search", "edit", "move", "copy", "delete", "chmod", "chown", "upload_file", "service", "playbook", "help", "capabilities"}

// Config is a `sentinel mcp` config file.
type Config struct {
	ExecMode        string              `toml:"exec_mode"`
	AllowedCommands []string            `toml:"allowed_commands"`
	Audit           string              `toml:"audit"`
	DisabledOps     []string            `toml:"disabled_ops"`
	Network         string              `toml:"network"`
	AllowHosts      []string            `toml:"allow_hosts"`
	Sandbox         string              `toml:"sandbox"`
	UploadBase      string              `toml:"upload_base"`
	UploadURLs      bool                `toml:"upload_urls"`
	Token           string              `toml:"token"`
	TokenEnv        string              `toml:"token_env"`
	Paths           []PathEntry         `toml:"paths"`
	Limits          Limits              `toml:"limits"`
	Services        map[string]Service  `toml:"services"`
	Playbooks       map[string]Playbook `toml:"playbooks"`
	OAuth           OAuthSettings       `toml:"oauth"`
	TLS             TLSSettings         `toml:"tls"`
	Log             LogConfig           `toml:"log"`
	Sudo            SudoSettings        `toml:"sudo"`

	// File is where the config was read from.
	File string `toml:"-"`
	// uploadBase is UploadBase canonicalised.
	uploadBase string
	// allowed is AllowedCommands split into words.
	allowed [][]string
	// guards are the sandbox's hidden and protected locations.
	guards guards
}

// PathEntry is one [[paths]] entry.
type PathEntry struct {
	Path   string `toml:"path"`
	Access string `toml:"access"`
	// real is Path canonicalised (symlinks resolved) when the config loaded.
	real string
}

// Limits bound what one call may cost.
type Limits struct {
	MaxReadBytes     int64  `toml:"max_read_bytes"`
	MaxListEntries   int    `toml:"max_list_entries"`
	MaxSearchResults int    `toml:"max_search_results"`
	ExecTimeout      string `toml:"exec_timeout"`
	MaxOutputBytes   int    `toml:"max_output_bytes"`
	MaxUploadBytes   int64  `toml:"max_upload_bytes"`

	execTimeout time.Duration
	// base64Upload is the most upload_file takes as content_base64: 0 when
	// it is off, else max_upload_bytes up to maxBase64Upload. The request
	// cap (MaxRequestBytes) makes room for it.
	base64Upload int64
}

// Base64UploadBytes is the biggest file upload_file takes as
// content_base64 (0: upload_file is off).
func (l Limits) Base64UploadBytes() int64 { return l.base64Upload }

// Service is one [services.NAME] entry: the systemd unit NAME and the
// actions the model may take on it.
type Service struct {
	Unit    string   `toml:"unit"` // default: the entry's name
	Actions []string `toml:"actions"`
}

// Playbook is one [playbooks.NAME] entry.
type Playbook struct {
	Description string   `toml:"description"`
	Kind        string   `toml:"kind"`     // diagnostic (commands run in order) or procedure (steps the model follows)
	Commands    []string `toml:"commands"` // diagnostic
	Steps       []string `toml:"steps"`    // procedure
	// When is a command line run in the sandbox first: the playbook goes on
	// only when it exits 0 (else the answer says it was skipped and why).
	When string `toml:"when"`
	// Requires lists what must be present: program names (found on PATH)
	// or absolute paths (that exist). A playbook missing one is refused.
	Requires []string `toml:"requires"`
	// Notes is shown with the playbook, for the model to read.
	Notes string `toml:"notes"`
}

// Playbook kinds.
const (
	PlaybookDiagnostic = "diagnostic"
	PlaybookProcedure  = "procedure"
)

// Default limits.
const (
	DefaultMaxReadBytes     = 1 << 20
	DefaultMaxListEntries   = 1000
	DefaultMaxSearchResults = 200
	DefaultExecTimeout      = 60 * time.Second
	DefaultMaxOutputBytes   = 64 << 10
	DefaultMaxUploadBytes   = 16 << 20
)

var serviceActions = []string{"status", "start", "stop", "restart", "reload", "enable", "disable", "is-active", "is-enabled"}

const knownKeys = "exec_mode, allowed_commands, audit, disabled_ops, network, allow_hosts, sandbox, upload_base, upload_urls, token, token_env, [[paths]] path/access, [limits] max_read_bytes/max_list_entries/max_search_results/exec_timeout/max_output_bytes/max_upload_bytes, [services.NAME] unit/actions, [playbooks.NAME] description/kind/commands/steps/when/requires/notes, [log] level/file"

// LoadConfig reads and validates a config file, refused on unix when
// someone other than root or this user owns it or may write it. Every
// error names the file, the line and the fix.
func LoadConfig(path string) (*Config, error) {
	src, err := readOwnConfig(path) // owner_unix.go
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return ParseConfig(path, string(src))
}

// ParseConfig validates src as the config file path.
func ParseConfig(path, src string) (*Config, error) {
	c := &Config{File: path}
	md, err := toml.Decode(src, c)
	if err != nil {
		var perr toml.ParseError
		if errors.As(err, &perr) {
			return nil, fmt.Errorf("%s:%d: %s (fix the TOML syntax)", path, perr.Position.Line, perr.Message)
		}
		return nil, fmt.Errorf("%s: %v (check the value types: %s)", path, err, knownKeys)
	}
	if und := md.Undecoded(); len(und) > 0 {
		k := und[0]
		return nil, fmt.Errorf("%s:%d: unknown key %q (known: %s, %s)", path, findLine(src, k), k.String(), knownKeys, httpKnownKeys)
	}
	bad := func(key toml.Key, format string, a ...any) error {
		return fmt.Errorf("%s:%d: %s", path, findLine(src, key), fmt.Sprintf(format, a...))
	}
	switch c.ExecMode {
	case "":
		c.ExecMode = ModeAllowlist
	case ModeAllowlist, ModePolicy, ModeStrict, ModeUnrestricted:
	default:
		return nil, bad(toml.Key{"exec_mode"}, "exec_mode %q: use \"allowlist\", \"strict\", \"policy\" or \"unrestricted\"", c.ExecMode)
	}
	for _, a := range c.AllowedCommands {
		words := strings.Fields(a)
		if len(words) == 0 || strings.ContainsAny(a, "|&;<>()$`\\\"'*?[]{}~\n") {
			return nil, bad(toml.Key{"allowed_commands"}, "allowed_commands entry %q: give a program and optional leading words, e.g. \"git\" or \"systemctl status\" (no shell syntax)", a)
		}
		c.allowed = append(c.allowed, words)
	}
	if c.Audit != "" && !filepath.IsAbs(c.Audit) {
		return nil, bad(toml.Key{"audit"}, "audit %q: give an absolute path, or leave it out for the user's state dir", c.Audit)
	}
	for i, op := range c.DisabledOps {
		op = opName(op) // "op:chmod" and "Chmod" are chmod
		c.DisabledOps[i] = op
		if !slices.Contains(Ops, op) || op == "help" || op == "capabilities" {
			return nil, bad(toml.Key{"disabled_ops"}, "disabled_ops %q: not an op that can be disabled (use any of exec, read, list, search, edit, move, copy, delete, chmod, chown, upload_file, service, playbook)", op)
		}
	}
	switch c.Network {
	case "":
		c.Network = NetNone
	case NetNone, NetProxy:
	default:
		return nil, bad(toml.Key{"network"}, "network %q: use \"none\" or \"proxy\" (with allow_hosts)", c.Network)
	}
	for _, h := range c.AllowHosts {
		if h == "" || strings.ContainsAny(h, "/ \t*") {
			return nil, bad(toml.Key{"allow_hosts"}, "allow_hosts entry %q: give HOST or HOST:PORT", h)
		}
	}
	if len(c.AllowHosts) > 0 && c.Network != NetProxy {
		return nil, bad(toml.Key{"allow_hosts"}, "allow_hosts needs network = \"proxy\"")
	}
	switch c.Sandbox {
	case "":
		c.Sandbox = "auto"
	case "auto", "ns", "bwrap":
	default:
		return nil, bad(toml.Key{"sandbox"}, "sandbox %q: use auto, ns or bwrap (exec never runs unsandboxed)", c.Sandbox)
	}
	if c.Token != "" && len(c.Token) < 16 {
		return nil, bad(toml.Key{"token"}, "token: use at least 16 characters (e.g. openssl rand -hex 32)")
	}
	if c.TokenEnv != "" && (strings.ContainsAny(c.TokenEnv, "= \t$") || c.TokenEnv != strings.TrimSpace(c.TokenEnv)) {
		return nil, bad(toml.Key{"token_env"}, "token_env %q: give the name of an environment variable", c.TokenEnv)
	}
	if c.Token != "" && c.TokenEnv != "" {
		return nil, bad(toml.Key{"token_env"}, "token and token_env are both set: keep one")
	}
	if len(c.Paths) == 0 {
		return nil, fmt.Errorf("%s: no [[paths]]: list at least one path with access = \"r\" or \"rw\"", path)
	}
	for i := range c.Paths {
		p := &c.Paths[i]
		line := nthTableLine(src, "paths", i)
		if p.Path == "" || !filepath.IsAbs(p.Path) {
			return nil, fmt.Errorf("%s:%d: [[paths]] path %q: give an absolute path", path, line, p.Path)
		}
		if p.Access != AccessRead && p.Access != AccessReadWrite {
			return nil, fmt.Errorf("%s:%d: [[paths]] access %q for %s: use \"r\" or \"rw\"", path, line, p.Access, p.Path)
		}
		real, err := filepath.EvalSymlinks(p.Path)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: [[paths]] path %s: %v (create it or remove the entry)", path, line, p.Path, err)
		}
		if filepath.Dir(real) == real {
			return nil, fmt.Errorf("%s:%d: [[paths]] path %s is the whole filesystem: list the directories you mean", path, line, p.Path)
		}
		p.real = real
	}
	for i, p := range c.Paths {
		for j, q := range c.Paths {
			if i != j && p.real == q.real {
				return nil, fmt.Errorf("%s:%d: [[paths]] %s is listed twice: keep one entry", path, nthTableLine(src, "paths", j), q.Path)
			}
			// An r path inside an rw one cannot be kept read-only by the file
			// tools (an os.Root at the rw path would follow a symlink into it).
			if i != j && p.Access == AccessReadWrite && q.Access == AccessRead && within(q.real, p.real) {
				return nil, fmt.Errorf("%s:%d: [[paths]] %s (r) lies inside %s (rw): a read-only path inside a writable one is not supported; move it out or make both rw", path, nthTableLine(src, "paths", j), q.Path, p.Path)
			}
		}
	}
	l := &c.Limits
	lim := func(k string, v, def int64) (int64, error) {
		if v < 0 {
			return 0, bad(toml.Key{"limits", k}, "[limits] %s = %d: give a positive number", k, v)
		}
		if v == 0 {
			return def, nil
		}
		return v, nil
	}
	var v int64
	if l.MaxReadBytes, err = lim("max_read_bytes", l.MaxReadBytes, DefaultMaxReadBytes); err != nil {
		return nil, err
	}
	if v, err = lim("max_list_entries", int64(l.MaxListEntries), DefaultMaxListEntries); err != nil {
		return nil, err
	}
	l.MaxListEntries = int(v)
	if v, err = lim("max_search_results", int64(l.MaxSearchResults), DefaultMaxSearchResults); err != nil {
		return nil, err
	}
	l.MaxSearchResults = int(v)
	if v, err = lim("max_output_bytes", int64(l.MaxOutputBytes), DefaultMaxOutputBytes); err != nil {
		return nil, err
	}
	l.MaxOutputBytes = int(v)
	if l.MaxUploadBytes, err = lim("max_upload_bytes", l.MaxUploadBytes, DefaultMaxUploadBytes); err != nil {
		return nil, err
	}
	if c.UploadBase != "" {
		if !filepath.IsAbs(c.UploadBase) {
			return nil, bad(toml.Key{"upload_base"}, "upload_base %q: give an absolute path under an rw path", c.UploadBase)
		}
		real, err := filepath.EvalSymlinks(c.UploadBase)
		if err != nil {
			return nil, bad(toml.Key{"upload_base"}, "upload_base %s: %v (create it or remove the key)", c.UploadBase, err)
		}
		if pl, ok := c.place(real); !ok || pl.Access != AccessReadWrite {
			return nil, bad(toml.Key{"upload_base"}, "upload_base %s is not under an rw path: list it (or a parent) in [[paths]] with access = \"rw\"", c.UploadBase)
		}
		c.uploadBase = real
		if !c.disabled("upload_file") {
			l.base64Upload = min(l.MaxUploadBytes, maxBase64Upload)
		}
	} else if c.UploadURLs {
		return nil, bad(toml.Key{"upload_urls"}, "upload_urls needs upload_base: name the directory uploads go into")
	}
	l.execTimeout = DefaultExecTimeout
	if l.ExecTimeout != "" {
		d, err := time.ParseDuration(l.ExecTimeout)
		if err != nil || d <= 0 {
			return nil, bad(toml.Key{"limits", "exec_timeout"}, "[limits] exec_timeout %q: give a duration such as \"30s\" or \"5m\"", l.ExecTimeout)
		}
		l.execTimeout = d
	}
	for name, s := range c.Services {
		key := toml.Key{"services", name}
		if !validUnit(name) {
			return nil, bad(key, "[services.%s]: a unit name holds letters, digits and -_.@: only", name)
		}
		if s.Unit != "" && !validUnit(s.Unit) {
			return nil, bad(append(key, "unit"), "[services.%s] unit %q: a unit name holds letters, digits and -_.@: only", name, s.Unit)
		}
		if len(s.Actions) == 0 {
			return nil, bad(key, "[services.%s] has no actions: list some of %s", name, strings.Join(serviceActions, ", "))
		}
		for _, a := range s.Actions {
			if !slices.Contains(serviceActions, a) {
				return nil, bad(append(key, "actions"), "[services.%s] action %q: use %s", name, a, strings.Join(serviceActions, ", "))
			}
		}
	}
	for name, pb := range c.Playbooks {
		key := toml.Key{"playbooks", name}
		switch pb.Kind {
		case PlaybookDiagnostic:
			if len(pb.Commands) == 0 || len(pb.Steps) > 0 {
				return nil, bad(key, "[playbooks.%s] kind = \"diagnostic\": list its commands (and no steps)", name)
			}
			for _, cmd := range pb.Commands {
				if strings.TrimSpace(cmd) == "" || strings.ContainsAny(cmd, "\n\r") {
					return nil, bad(append(key, "commands"), "[playbooks.%s] command %q: one non-empty line each", name, cmd)
				}
			}
		case PlaybookProcedure:
			if len(pb.Steps) == 0 || len(pb.Commands) > 0 {
				return nil, bad(key, "[playbooks.%s] kind = \"procedure\": list its steps (and no commands)", name)
			}
		default:
			return nil, bad(append(key, "kind"), "[playbooks.%s] kind %q: use \"diagnostic\" (commands run in order) or \"procedure\" (steps the model follows)", name, pb.Kind)
		}
	}
	for name, pb := range c.Playbooks {
		key := toml.Key{"playbooks", name}
		if pb.When != "" && (strings.TrimSpace(pb.When) == "" || strings.ContainsAny(pb.When, "\n\r")) {
			return nil, bad(append(key, "when"), "[playbooks.%s] when %q: give one command line whose exit status 0 means go on", name, pb.When)
		}
		for _, r := range pb.Requires {
			if r == "" || strings.ContainsAny(r, " \t\n") || (strings.Contains(r, "/") && !filepath.IsAbs(r)) {
				return nil, bad(append(key, "requires"), "[playbooks.%s] requires %q: give a program name (e.g. \"nginx\") or an absolute path", name, r)
			}
		}
	}
	if err := c.checkLog(func(key []string, format string, a ...any) error { return bad(toml.Key(key), format, a...) }); err != nil {
		return nil, err
	}
	if err := c.checkHTTP(path, src, md); err != nil {
		return nil, err
	}
	if err := c.checkSudo(path, src); err != nil {
		return nil, err
	}
	c.guards = newGuards(c)
	return c, nil
}

func validUnit(s string) bool {
	if s == "" || s[0] == '-' || len(s) > 256 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_.@:", r)) {
			return false
		}
	}
	return true
}

// ExecTimeoutDuration is the limit on one command's run.
func (l Limits) ExecTimeoutDuration() time.Duration {
	if l.execTimeout == 0 {
		return DefaultExecTimeout
	}
	return l.execTimeout
}

// disabled says whether op is switched off.
func (c *Config) disabled(op string) bool { return slices.Contains(c.DisabledOps, op) }

// CheckTokenFile refuses, before serving HTTP, a token written in a config
// file that other users may read: anyone on the machine could read it and
// reach this server as its owner.
func (c *Config) CheckTokenFile() error {
	if c.Token == "" || runtime.GOOS == "windows" {
		return nil
	}
	if st, err := os.Stat(c.File); err == nil && st.Mode().Perm()&0o077 != 0 {
		return fmt.Errorf("%s holds a token and other users may read it (mode %04o): chmod 600 %s, or move the token to token_env", c.File, st.Mode().Perm(), c.File)
	}
	return nil
}

// ResolveToken is the bearer token: token, or the variable token_env names.
func (c *Config) ResolveToken(getenv func(string) string) (string, error) {
	if c.Token != "" {
		return c.Token, nil
	}
	if c.TokenEnv != "" {
		t := getenv(c.TokenEnv)
		if len(t) < 16 {
			return "", fmt.Errorf("%s: token_env %s is unset or shorter than 16 characters: export it (e.g. %s=$(openssl rand -hex 32))", c.File, c.TokenEnv, c.TokenEnv)
		}
		return t, nil
	}
	return "", nil
}

// findLine is the line that sets key (a table header for a table key), or
// 1 when it cannot be found.
func findLine(src string, key toml.Key) int {
	var table string
	norm := func(s string) string { return strings.NewReplacer(" ", "", "\t", "", "\"", "", "'", "").Replace(s) }
	want := norm(strings.Join(key, "."))
	for i, raw := range strings.Split(src, "\n") {
		line := strings.TrimSpace(raw)
		if strings.HasPrefix(line, "[") {
			h := strings.Trim(strings.SplitN(line, "#", 2)[0], "[] \t")
			table = norm(h)
			if table == want {
				return i + 1
			}
			continue
		}
		eq := strings.IndexByte(line, '=')
		if eq <= 0 {
			continue
		}
		k := norm(line[:eq])
		full := k
		if table != "" {
			full = table + "." + k
		}
		if full == want {
			return i + 1
		}
	}
	if len(key) > 1 {
		return findLine(src, key[:len(key)-1])
	}
	return 1
}

// nthTableLine is the line of the n-th [[name]] header (from 0).
func nthTableLine(src, name string, n int) int {
	seen := 0
	for i, raw := range strings.Split(src, "\n") {
		h := strings.ReplaceAll(strings.TrimSpace(strings.SplitN(raw, "#", 2)[0]), " ", "")
		if h == "[["+name+"]]" {
			if seen == n {
				return i + 1
			}
			seen++
		}
	}
	return 1
}
