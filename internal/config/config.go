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
// every [supervisor] key but timeout — are honoured only once the person has
// approved that exact file with `sentinel config trust`: the SHA-256 of its
// bytes is recorded in the user's state directory (internal/userstate),
// outside every project, as direnv does. A file that is not approved, or
// has changed by one byte since, is still read, without those settings (see
// ProjectFile.Warning). Always honoured: coder, theme, [verify] timeout,
// [sandbox] hidden, [supervisor] timeout. The user's own config.toml, which
// no sandboxed process can reach, is honoured in full.
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
	Coder   string  `toml:"coder"` // default --coder
	Theme   string  `toml:"theme"`
	Verify  Verify  `toml:"verify"`
	Sandbox Sandbox `toml:"sandbox"`
	// Supervisor is the [supervisor] section: backend, base_url, model,
	// api_key_env, timeout, prompts, max_tokens, command.
	Supervisor Supervisor `toml:"supervisor"`
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
}

// Sandbox adds to what the coder may reach.
type Sandbox struct {
	AllowHosts []string `toml:"allow_hosts"`
	Hidden     []string `toml:"hidden"`
	Readable   []string `toml:"readable"`
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
		c.merge(pf.Honoured())
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
		return c, fmt.Errorf("%s:%d: unknown key %q (known: coder, theme, [verify] commands/timeout, [sandbox] allow_hosts/hidden/readable, [supervisor] backend/base_url/model/api_key_env/timeout/prompts/max_tokens/command)", path, lineOf(string(src), und[0][len(und[0])-1]), key)
	}
	if c.Verify.Timeout != "" {
		if _, err := parseDuration(c.Verify.Timeout); err != nil {
			return c, fmt.Errorf("%s:%d: [verify] timeout %q: %v", path, lineOf(string(src), "timeout"), c.Verify.Timeout, err)
		}
	}
	for _, cmd := range c.Verify.Commands {
		if strings.TrimSpace(cmd) == "" {
			return c, fmt.Errorf("%s:%d: [verify] commands has an empty command", path, lineOf(string(src), "commands"))
		}
	}
	// `x = []` sets nothing, the same as leaving x out.
	for _, l := range []*[]string{&c.Verify.Commands, &c.Sandbox.AllowHosts, &c.Sandbox.Hidden, &c.Sandbox.Readable} {
		if len(*l) == 0 {
			*l = nil
		}
	}
	return c, nil
}

func (c *Config) merge(o Config) {
	if o.Coder != "" {
		c.Coder = o.Coder
	}
	if o.Theme != "" {
		c.Theme = o.Theme
	}
	if len(o.Verify.Commands) > 0 {
		c.Verify.Commands = o.Verify.Commands
	}
	if o.Verify.Timeout != "" {
		c.Verify.Timeout = o.Verify.Timeout
	}
	c.Supervisor = mergeSupervisor(c.Supervisor, o.Supervisor)
	c.Sandbox.AllowHosts = append(c.Sandbox.AllowHosts, o.Sandbox.AllowHosts...)
	c.Sandbox.Hidden = append(c.Sandbox.Hidden, o.Sandbox.Hidden...)
	c.Sandbox.Readable = append(c.Sandbox.Readable, o.Sandbox.Readable...)
}

// mergeSupervisor lays o's [supervisor] over c's: a file that names a
// backend sets the whole section (a model or URL meant for one backend must
// not carry over to another); one that does not (say, only a timeout, with
// the backend chosen by --supervisor) sets the fields it has.
func mergeSupervisor(c, o Supervisor) Supervisor {
	if o.Backend != "" {
		return o
	}
	set := func(dst *string, v string) {
		if v != "" {
			*dst = v
		}
	}
	set(&c.BaseURL, o.BaseURL)
	set(&c.Model, o.Model)
	set(&c.APIKeyEnv, o.APIKeyEnv)
	set(&c.Timeout, o.Timeout)
	set(&c.Prompts, o.Prompts)
	set(&c.Command, o.Command)
	if o.MaxTokens > 0 {
		c.MaxTokens = o.MaxTokens
	}
	return c
}

// lineOf finds the first line that sets key, for error messages.
func lineOf(src, key string) int {
	for i, l := range strings.Split(src, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, key) && strings.Contains(t, "=") {
			return i + 1
		}
	}
	return 1
}
