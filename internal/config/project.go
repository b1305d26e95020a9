package config

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
)

// ProjectFile is a project's .sentinel/config.toml as read once: its bytes'
// hash, everything it sets, which of that needs the person's approval, and
// whether the person approved exactly these bytes.
type ProjectFile struct {
	Root    string // the project root it was read for
	Path    string // Root/.sentinel/config.toml
	Present bool
	SHA256  string // hex SHA-256 of the exact bytes read and decoded
	// Config is everything the file sets, approved or not.
	Config Config
	// Widening are the settings that need approval, one per line in the
	// file's own terms (`[sandbox] readable = ["/"]`).
	Widening []string
	// Trusted: the person approved a file with exactly this SHA256 for
	// this project (sentinel config trust).
	Trusted bool
}

// ProjectPath is the project config file of the project at root.
func ProjectPath(root string) string { return filepath.Join(root, ".sentinel", "config.toml") }

// ReadProject reads root's project config file once, hashes the bytes it
// decodes and looks the hash up in the person's approvals. A missing file is
// Present false and no error; a malformed one is an error naming it.
func ReadProject(root string) (ProjectFile, error) {
	pf := ProjectFile{Root: root, Path: ProjectPath(root)}
	src, err := readConfig(pf.Path)
	if errors.Is(err, os.ErrNotExist) {
		return pf, nil
	}
	if err != nil {
		return pf, fmt.Errorf("read the project config: %w", err)
	}
	sum := sha256.Sum256(src)
	pf.Present, pf.SHA256 = true, hex.EncodeToString(sum[:])
	if pf.Config, err = parse(pf.Path, src); err != nil {
		return pf, err
	}
	pf.Widening = Widening(pf.Config)
	if len(pf.Widening) > 0 {
		pf.Trusted = isTrusted(root, pf.SHA256)
	}
	return pf, nil
}

// Honoured is what a run uses of the file: all of it when it widens
// nothing or is trusted, else only what narrows.
func (p ProjectFile) Honoured() Config {
	if len(p.Widening) == 0 || p.Trusted {
		return p.Config
	}
	return Narrow(p.Config)
}

// Ignored are the widening settings left out because the file is not
// trusted; empty when nothing was left out.
func (p ProjectFile) Ignored() []string {
	if p.Trusted {
		return nil
	}
	return p.Widening
}

// Warning is the one line to show when settings were left out, naming the
// file, what was left out and the fix; "" when nothing was.
func (p ProjectFile) Warning() string {
	ign := p.Ignored()
	if len(ign) == 0 {
		return ""
	}
	var keys []string
	for _, s := range ign {
		k, _, _ := strings.Cut(s, " = ")
		keys = append(keys, k)
	}
	return fmt.Sprintf("%s is not trusted (new, or changed since you trusted it): running without its %s; check the file, then trust it with: sentinel config trust --project %s",
		p.Path, strings.Join(keys, ", "), strconv.Quote(p.Root))
}

// Widening lists the settings in c that need the person's approval when
// they come from a project file: each would let the coder reach more
// (allow_hosts, readable, [exec] writable), run a program on the host or talk to a server
// with the person's key ([supervisor] and its role sections' backend,
// command, base_url, api_key_env, model, max_tokens; [supervisor] prompts),
// or replace the checks that gate landing ([verify] commands: a project
// could make them `true`). Not here, honoured always: coder (a built-in
// adapter, sandboxed like every other; a program for command or acp comes
// only from the command line), theme, [verify] timeout, the timeout of
// [supervisor] and of its role sections (a check or a model turn past them
// fails, which is a no), [sandbox] hidden (only takes away).
func Widening(c Config) []string {
	var out []string
	list := func(key string, v []string) {
		if len(v) > 0 {
			q := make([]string, len(v))
			for i, s := range v {
				q[i] = strconv.Quote(s)
			}
			out = append(out, fmt.Sprintf("%s = [%s]", key, strings.Join(q, ", ")))
		}
	}
	list("[sandbox] allow_hosts", c.Sandbox.AllowHosts)
	list("[sandbox] readable", c.Sandbox.Readable)
	list("[exec] writable", c.Exec.Writable)
	for _, b := range c.Exec.checkpointBounds() {
		if b.n != 0 { // a smaller checkpoint is less that undo can restore
			out = append(out, fmt.Sprintf("[exec] %s = %d", b.key, b.n))
		}
	}
	if c.Sandbox.SSHAgent {
		out = append(out, "[sandbox] ssh_agent = true")
	}
	if c.Sandbox.PidsMax != 0 {
		out = append(out, fmt.Sprintf("[sandbox] pids_max = %d", c.Sandbox.PidsMax))
	}
	list("[verify] commands", c.Verify.Commands)
	s := c.Supervisor
	str := func(key, v string) {
		if v != "" {
			out = append(out, fmt.Sprintf("[supervisor] %s = %s", key, strconv.Quote(v)))
		}
	}
	str("backend", s.Backend)
	str("command", s.Command)
	str("base_url", s.BaseURL)
	str("api_key_env", s.APIKeyEnv)
	str("model", s.Model)
	str("prompts", s.Prompts)
	if s.MaxTokens != 0 {
		out = append(out, fmt.Sprintf("[supervisor] max_tokens = %d", s.MaxTokens))
	}
	// A role's section chooses what judges the coder as much as
	// [supervisor] does; only its timeout narrows.
	for _, name := range RoleNames {
		r := s.Role(name)
		sec := "[supervisor." + name + "] "
		rstr := func(key, v string) {
			if v != "" {
				out = append(out, fmt.Sprintf("%s%s = %s", sec, key, strconv.Quote(v)))
			}
		}
		rstr("backend", r.Backend)
		rstr("command", r.Command)
		rstr("base_url", r.BaseURL)
		rstr("api_key_env", r.APIKeyEnv)
		rstr("model", r.Model)
		if r.MaxTokens != 0 {
			out = append(out, fmt.Sprintf("%smax_tokens = %d", sec, r.MaxTokens))
		}
	}
	// [service] and [notify] are never taken from a project (LoadProject
	// drops them), so they need no approval either.
	c.Service, c.Notify = Service{}, Notify{}
	if len(out) == 0 && !reflect.DeepEqual(Narrow(c), c) {
		// A key added to Config later is withheld until it is sorted here.
		out = append(out, "settings that need approval")
	}
	return out
}

// Narrow is c with only the settings a project file may make without
// approval: an allowlist, so a key added to Config later is withheld from
// an untrusted file until it is sorted in Widening.
func Narrow(c Config) Config {
	return Config{
		Coder:   c.Coder,
		Theme:   c.Theme,
		Verify:  Verify{Timeout: c.Verify.Timeout},
		Sandbox: Sandbox{Hidden: c.Sandbox.Hidden},
		Supervisor: Supervisor{Timeout: c.Supervisor.Timeout,
			Judge:     Role{Timeout: c.Supervisor.Judge.Timeout},
			Reviewer:  Role{Timeout: c.Supervisor.Reviewer.Timeout},
			Adversary: Role{Timeout: c.Supervisor.Adversary.Timeout},
			Relay:     Role{Timeout: c.Supervisor.Relay.Timeout},
		},
	}
}
