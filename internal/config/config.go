// Package config reads Sentinel's TOML configuration: the project's
// .sentinel/config.toml over the user's config.toml over built-in defaults.
// A malformed file or an unknown key is an error naming the file, the line
// and the key, so a typo never silently turns a protection off.
//
// The project file is data the coder may have written (a landed patch, a
// commit from another tool, a checkout of someone else's repository), so it
// is trusted only as far as it narrows what a run may do. Settings that
// widen the sandbox, name a program to run on the host or choose what judges
// the coder — [sandbox] allow_hosts and readable, [verify] commands, and
// every key but timeout of [supervisor] and of its role sections
// ([supervisor.judge] …) — are honoured only once the person has approved
// that exact file with `sentinel config trust`: the SHA-256 of its bytes is
// recorded in the user's state directory (internal/userstate), outside
// every project, as direnv does. A file that is not approved, or has
// changed by one byte since, is still read, without those settings (see
// ProjectFile.Warning). Always honoured: coder, theme, [verify] timeout,
// [sandbox] hidden, the supervisor sections' timeout. The user's own
// config.toml, which no sandboxed process can reach, is honoured in full.
//
// It must not act on what it reads: callers wire values into packages. Its
// sections are plain data, and it imports none of the packages it
// configures (they sit above it; the command line converts), so nothing it
// imports runs back up the tree.
package config

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
)

// Config is everything that can be configured in a file.
type Config struct {
	Coder string `toml:"coder"` // default --coder
	Theme string `toml:"theme"`
	// ReduceMotion is the person's "reduce motion" choice for Sentinel's
	// TUI (reduce_motion = true): its spinner holds still (the elapsed
	// seconds still count) and the coder pane redraws at most ten times a
	// second (tui.Options.ReduceMotion). The person's own choice: the TUI
	// reads it from the user's config.toml only, as [notify] (a project
	// file's is withheld by Narrow). An agent's own animations follow the
	// agent's own setting, which a run keeps (Claude Code's
	// prefersReducedMotion, Codex's [tui] animations, Gemini CLI's
	// ui.showSpinner, opencode's animations_enabled).
	ReduceMotion *bool   `toml:"reduce_motion"`
	Verify       Verify  `toml:"verify"`
	Sandbox      Sandbox `toml:"sandbox"`
	// Supervisor is the [supervisor] section: backend, base_url, model,
	// api_key_env, timeout, prompts, max_tokens, command; and the role
	// sections [supervisor.judge|reviewer|adversary|relay].
	Supervisor Supervisor `toml:"supervisor"`
	// Service is the machine's policy for agents ([service]); Notify says
	// how the person hears that a request waits ([notify]). Both are read
	// from the user's config only: a project file's are dropped (see
	// LoadProject), since a project must not set the machine's rules.
	Service Service `toml:"service"`
	Notify  Notify  `toml:"notify"`
	// Exec is [exec]: what `sentinel exec` (in place) adds to its sandbox.
	Exec Exec `toml:"exec"`
	// Journal is [journal]: how much of a run the journal keeps.
	Journal Journal `toml:"journal"`
}

// Journal is the [journal] section.
type Journal struct {
	// MaxOutput bounds the coder's output a run's journal keeps (a size:
	// "64MB"; empty: the default). Past it the output is dropped but for
	// its tail, and a line says how much went (runner.outputCap).
	MaxOutput string `toml:"max_output"`
}

// Exec is the [exec] section.
type Exec struct {
	// Writable are directories or files an in-place run may write besides
	// its project, its agent's state and temp dirs (a shared build output,
	// a second checkout): absolute or ~/ paths. The sandbox's credential
	// list still wins inside them. `sentinel run` ignores them: its coder
	// writes only its disposable copy.
	Writable []string `toml:"writable"`
	// CheckpointMaxFileMiB and CheckpointMaxTotalMiB bound the checkpoint
	// an in-place run takes before the coder acts (what 'sentinel undo'
	// restores): a larger file is listed but not covered, and past the
	// total the rest is listed only. 0: the defaults (16 and 1024).
	CheckpointMaxFileMiB  int `toml:"checkpoint_max_file_mib"`
	CheckpointMaxTotalMiB int `toml:"checkpoint_max_total_mib"`
}

// Service is the [service] section: the rules the user service and every
// launch apply to agents on this machine.
type Service struct {
	// RequireLauncher: an agent started outside Sentinel (not by run, exec
	// or a shim) is ended — TERM, then KILL after Grace — unless its
	// program is in AllowedApps.
	RequireLauncher bool     `toml:"require_launcher"`
	AllowedApps     []string `toml:"allowed_apps"` // program names or absolute paths
	// BlockedDirs: no launch in or under these directories.
	BlockedDirs []string `toml:"blocked_dirs"`
	// DeniedExecutables are refused at exec time inside launched runs, by
	// the sandbox (names match any directory; absolute paths match one file).
	DeniedExecutables []string `toml:"denied_executables"`
	Grace             string   `toml:"grace"`         // TERM → KILL, default 5s
	ScanInterval      string   `toml:"scan_interval"` // how often the service looks for agents, default 2s
	// Web is where the service's page listens (default 127.0.0.1:8787,
	// "off": no page); WebURL is its address as a phone reaches it (a
	// tunnel, a tailnet name), for pairing links and pushes.
	Web    string `toml:"web"`
	WebURL string `toml:"web_url"`
	// WebCert and WebKey are PEM files: with them the page is served
	// over HTTPS (needed when it listens beyond loopback without the
	// person's own TLS tunnel or tailnet in front).
	WebCert string `toml:"web_cert"`
	WebKey  string `toml:"web_key"`
}

// Notify is the [notify] section: how the person hears that a request is
// waiting with nobody answering.
type Notify struct {
	// Command runs (through sh -c, outside any sandbox: it is the person's
	// own) with the request's run, project and summary as JSON on stdin.
	Command string `toml:"command"`
	// Desktop turns the desktop notification off when false (default on
	// where one is available).
	Desktop *bool `toml:"desktop"`
	// Bell rings the terminal bell when a card arrives in run, exec and
	// console (default on); Title puts "⏳ N waiting" in the terminal's
	// title while cards wait (default on).
	Bell  *bool `toml:"bell"`
	Title *bool `toml:"title"`
	// Terminal is the desktop notification raised through the terminal
	// itself: "auto" (default: where the terminal is known to show one),
	// "osc9", "osc777" or "off".
	Terminal string `toml:"terminal"`
	// Push is an ntfy-compatible server's URL (with PushTopic) or a
	// webhook's (without) that hears of every card with nobody at its
	// terminal, with Approve/Deny actions (runner/service/web).
	Push      string `toml:"push"`
	PushTopic string `toml:"push_topic"`
}

// Verify lists the checks re-run on a clean copy when the coder finishes.
type Verify struct {
	Commands []string `toml:"commands"`
	Timeout  string   `toml:"timeout"` // per command, e.g. "10m"
}

// Supervisor is the [supervisor] section as written: which model backend
// judges the coder and how to reach it. It is plain data; the caller turns
// it into the supervisor package's own configuration (and checks the
// backend name there), so this package depends on no package it configures.
type Supervisor struct {
	Backend string `toml:"backend"`  // anthropic, openai, claude-cli, codex-cli
	BaseURL string `toml:"base_url"` // empty: the API's public endpoint
	Model   string `toml:"model"`
	// APIKeyEnv names the environment variable holding the key, so keys
	// never sit in config files.
	APIKeyEnv string `toml:"api_key_env"`
	Timeout   string `toml:"timeout"` // one model turn, e.g. "30s"
	Prompts   string `toml:"prompts"` // a prompts file over the built-in text
	MaxTokens int    `toml:"max_tokens"`
	Command   string `toml:"command"` // the CLI for claude-cli or codex-cli

	// The roles' own sections, [supervisor.judge] and so on: each key a
	// role leaves unset is the [supervisor] one (see Role).
	Judge     Role `toml:"judge"`
	Reviewer  Role `toml:"reviewer"`
	Adversary Role `toml:"adversary"`
	Relay     Role `toml:"relay"`
}

// Role is one supervisor role's own section: [supervisor.judge] (gray-zone
// requests and a person's card), [supervisor.reviewer] (the completion
// review), [supervisor.adversary] (the adversarial tester) or
// [supervisor.relay] (a person's messages). A role section that names a
// backend is that role's whole configuration (a model or URL meant for
// [supervisor]'s backend must not carry over to another); one that does not
// sets only its keys over [supervisor]'s. The prompts file is shared.
type Role struct {
	Backend   string `toml:"backend"`
	BaseURL   string `toml:"base_url"`
	Model     string `toml:"model"`
	APIKeyEnv string `toml:"api_key_env"`
	Timeout   string `toml:"timeout"`
	MaxTokens int    `toml:"max_tokens"`
	Command   string `toml:"command"`
}

// RoleNames are the role sections' names, in the order they are shown.
var RoleNames = []string{"judge", "reviewer", "adversary", "relay"}

// Role is the section of the role named name (one of RoleNames); nil for
// another name.
func (s *Supervisor) Role(name string) *Role {
	switch name {
	case "judge":
		return &s.Judge
	case "reviewer":
		return &s.Reviewer
	case "adversary":
		return &s.Adversary
	case "relay":
		return &s.Relay
	}
	return nil
}

// IsZero says the section sets nothing.
func (r Role) IsZero() bool { return r == Role{} }

// Sandbox adds to what the coder may reach.
type Sandbox struct {
	AllowHosts []string `toml:"allow_hosts"`
	Hidden     []string `toml:"hidden"`
	Readable   []string `toml:"readable"`
	// SSHAgent passes the person's ssh agent ($SSH_AUTH_SOCK) into an
	// in-place run (sentinel exec, the shims): with it the coder can sign
	// commits and authenticate as the person. Off unless set here.
	SSHAgent bool `toml:"ssh_agent"`
	// PidsMax bounds how many processes one sandbox may hold at once (a
	// pids cgroup where Sentinel may make one, else RLIMIT_NPROC inside
	// the sandbox's user namespace); 0 means the default, 4096.
	PidsMax int `toml:"pids_max"`
}

// Files are the config files, lowest precedence first.
func Files(projectRoot string) []string {
	var out []string
	if dir, err := os.UserConfigDir(); err == nil {
		out = append(out, filepath.Join(dir, "sentinel", "config.toml"))
	}
	if projectRoot != "" {
		out = append(out, filepath.Join(projectRoot, ".sentinel", "config.toml"))
	}
	return out
}

// Load reads the user config and then the project config; a later file's
// non-empty values win. Missing files are fine. Of the project file only
// what it may set without the person's approval is used unless that exact
// file is trusted (see the package doc and LoadProject).
func Load(projectRoot string) (Config, error) {
	c, _, err := LoadProject(projectRoot)
	return c, err
}

// LoadProject is Load that also describes the project file: whether it is
// there, trusted, and which of its settings were left out.
func LoadProject(projectRoot string) (Config, ProjectFile, error) {
	var c Config
	var pf ProjectFile
	if dir, err := os.UserConfigDir(); err == nil {
		fc, err := LoadFile(filepath.Join(dir, "sentinel", "config.toml"))
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return c, pf, err
		default:
			c.merge(fc)
		}
	}
	if projectRoot == "" {
		return c, pf, nil
	}
	pf, err := ReadProject(projectRoot)
	if err != nil {
		return c, pf, err
	}
	if pf.Present {
		h := pf.Honoured()
		h.Service, h.Notify = Service{}, Notify{} // the machine's rules are the person's alone
		c.merge(h)
	}
	return c, pf, nil
}

// LoadFile reads one config file strictly.
func LoadFile(path string) (Config, error) {
	src, err := readConfig(path)
	if err != nil {
		return Config{}, err
	}
	return parse(path, src)
}

// maxConfigBytes bounds a config file: a planted symlink to /dev/zero must
// not eat the memory, nor a FIFO hang the run.
const maxConfigBytes = 1 << 20

// readConfig reads a config file that must be a regular file of at most
// maxConfigBytes. A missing file is an error wrapping os.ErrNotExist.
func readConfig(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file: replace it with a TOML file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return nil, err
	}
	if len(src) > maxConfigBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes: not a config file", path, maxConfigBytes)
	}
	return src, nil
}

// parse decodes one file's bytes strictly; path is for messages.
func parse(path string, src []byte) (Config, error) {
	var c Config
	md, err := toml.Decode(string(src), &c)
	if err != nil {
		var perr toml.ParseError
		if errors.As(err, &perr) {
			return c, fmt.Errorf("%s:%d: %s (fix the TOML syntax)", path, perr.Position.Line, perr.Message)
		}
		return c, fmt.Errorf("%s: %v", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		key := und[0].String()
		return c, fmt.Errorf("%s:%d: unknown key %q (known: coder, theme, reduce_motion, [verify] commands/timeout, [sandbox] allow_hosts/hidden/readable, [supervisor] backend/base_url/model/api_key_env/timeout/prompts/max_tokens/command, [supervisor.judge|reviewer|adversary|relay] backend/base_url/model/api_key_env/timeout/max_tokens/command, [service] require_launcher/allowed_apps/blocked_dirs/denied_executables/grace/scan_interval, [notify] command/desktop/bell/title/terminal, [exec] writable)", path, lineOf(string(src), und[0]...), key)
	}
	for _, name := range RoleNames {
		if t := c.Supervisor.Role(name).Timeout; t != "" {
			if d, err := parseDuration(t); err != nil || d <= 0 {
				return c, fmt.Errorf("%s:%d: [supervisor.%s] timeout %q: want a positive duration such as 30s", path, lineOf(string(src), "supervisor", name, "timeout"), name, t)
			}
		}
	}
	switch c.Notify.Terminal {
	case "", "auto", "osc9", "osc777", "off":
	default:
		return c, fmt.Errorf("%s:%d: [notify] terminal %q: want auto, osc9, osc777 or off", path, lineOf(string(src), "notify", "terminal"), c.Notify.Terminal)
	}
	for _, d := range []struct{ key, v string }{{"grace", c.Service.Grace}, {"scan_interval", c.Service.ScanInterval}} {
		if d.v == "" {
			continue
		}
		if v, err := parseDuration(d.v); err != nil || v <= 0 {
			return c, fmt.Errorf("%s:%d: [service] %s %q: want a positive duration such as 5s", path, lineOf(string(src), "service", d.key), d.key, d.v)
		}
	}
	for _, l := range []struct {
		key  string
		list []string
	}{{"blocked_dirs", c.Service.BlockedDirs}, {"denied_executables", c.Service.DeniedExecutables}, {"allowed_apps", c.Service.AllowedApps}} {
		for _, v := range l.list {
			if strings.TrimSpace(v) == "" {
				return c, fmt.Errorf("%s:%d: [service] %s has an empty entry", path, lineOf(string(src), "service", l.key), l.key)
			}
		}
	}
	for _, w := range c.Exec.Writable {
		if err := checkWritable(w); err != nil {
			return c, fmt.Errorf("%s:%d: [exec] writable entry %q: %v", path, lineOf(string(src), "exec", "writable"), w, err)
		}
	}
	for _, b := range c.Exec.checkpointBounds() {
		if b.n < 0 {
			return c, fmt.Errorf("%s:%d: [exec] %s = %d: want a number of MiB, 0 for the default", path, lineOf(string(src), "exec", b.key), b.key, b.n)
		}
	}
	if c.Sandbox.PidsMax < 0 {
		return c, fmt.Errorf("%s:%d: [sandbox] pids_max %d: want a positive number of processes (leave it out for the default, 4096)", path, lineOf(string(src), "sandbox", "pids_max"), c.Sandbox.PidsMax)
	}
	for _, d := range c.Service.BlockedDirs {
		if !filepath.IsAbs(d) && !strings.HasPrefix(d, "~/") {
			return c, fmt.Errorf("%s:%d: [service] blocked_dirs entry %q: want an absolute path or one starting with ~/", path, lineOf(string(src), "service", "blocked_dirs"), d)
		}
	}
	if (c.Service.WebCert == "") != (c.Service.WebKey == "") {
		return c, fmt.Errorf("%s:%d: [service] web_cert and web_key go together: give both (PEM files) for HTTPS, or neither", path, lineOf(string(src), "service", "web_cert"))
	}
	for _, f := range []string{c.Service.WebCert, c.Service.WebKey} {
		if f != "" && !filepath.IsAbs(f) {
			return c, fmt.Errorf("%s:%d: [service] web_cert / web_key %q: want an absolute path", path, lineOf(string(src), "service", "web_cert"), f)
		}
	}
	if c.Verify.Timeout != "" {
		if _, err := parseDuration(c.Verify.Timeout); err != nil {
			return c, fmt.Errorf("%s:%d: [verify] timeout %q: %v", path, lineOf(string(src), "verify", "timeout"), c.Verify.Timeout, err)
		}
	}
	for _, cmd := range c.Verify.Commands {
		if strings.TrimSpace(cmd) == "" {
			return c, fmt.Errorf("%s:%d: [verify] commands has an empty command", path, lineOf(string(src), "verify", "commands"))
		}
	}
	// `x = []` sets nothing, the same as leaving x out.
	for _, l := range []*[]string{&c.Verify.Commands, &c.Sandbox.AllowHosts, &c.Sandbox.Hidden, &c.Sandbox.Readable,
		&c.Service.AllowedApps, &c.Service.BlockedDirs, &c.Service.DeniedExecutables, &c.Exec.Writable} {
		if len(*l) == 0 {
			*l = nil
		}
	}
	return c, nil
}

// lineOf finds the line that sets key (a full path such as verify.timeout),
// for error messages: the key itself, not one it is a prefix of, inside its
// own table. A key it cannot place is reported on line 1.
func lineOf(src string, key ...string) int {
	want := strings.Join(key, "\x00")
	var table []string
	for i, l := range strings.Split(src, "\n") {
		t := strings.TrimSpace(l)
		switch {
		case t == "" || strings.HasPrefix(t, "#"):
			continue
		case strings.HasPrefix(t, "["):
			name := strings.TrimLeft(t, "[")
			if j := strings.Index(name, "]"); j >= 0 {
				name = name[:j]
			}
			table = splitKey(name)
			if strings.Join(table, "\x00") == want {
				return i + 1
			}
		default:
			eq := strings.Index(t, "=")
			if eq < 0 {
				continue
			}
			full := append(append([]string{}, table...), splitKey(t[:eq])...)
			if strings.Join(full, "\x00") == want {
				return i + 1
			}
		}
	}
	return 1
}

// splitKey splits a dotted TOML key into its parts, without quotes.
func splitKey(k string) []string {
	var parts []string
	for _, p := range strings.Split(k, ".") {
		parts = append(parts, strings.Trim(strings.TrimSpace(p), `"'`))
	}
	return parts
}
