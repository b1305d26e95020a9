package config

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Setting is one configured value and the layer that set it.
type Setting struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Source string `json:"source"` // "user FILE", "project FILE", or what the caller adds: "flag", "env NAME", "default"
	// Note says what was left out of this key, e.g. a project value
	// ignored because the file is not trusted.
	Note string `json:"note,omitempty"`
}

// field reads one key's value out of a Config ("" when unset).
type field struct {
	key string
	get func(Config) string
	// list values add up across layers instead of replacing.
	list bool
	// whole says a layer sets this key even where it leaves it empty: it
	// names the backend of the key's section (see mergeSupervisor).
	whole func(Config) bool
	// userOnly keys ([service], [notify]) are the machine's rules: a
	// project file's are never used.
	userOnly bool
}

func baseWhole(c Config) bool { return c.Supervisor.Backend != "" }

// roleFields are the keys of the role section name, each read out of a
// Config the way supervisor.KEY is.
func roleFields(name string) []field {
	role := func(c Config) Role { return *c.Supervisor.Role(name) }
	whole := func(c Config) bool { return c.Supervisor.Backend != "" || role(c).Backend != "" }
	p := "supervisor." + name + "."
	return []field{
		{key: p + "backend", get: func(c Config) string { return role(c).Backend }, whole: whole},
		{key: p + "base_url", get: func(c Config) string { return role(c).BaseURL }, whole: whole},
		{key: p + "model", get: func(c Config) string { return role(c).Model }, whole: whole},
		{key: p + "api_key_env", get: func(c Config) string { return role(c).APIKeyEnv }, whole: whole},
		{key: p + "timeout", get: func(c Config) string { return role(c).Timeout }, whole: whole},
		{key: p + "max_tokens", get: func(c Config) string { return intString(role(c).MaxTokens) }, whole: whole},
		{key: p + "command", get: func(c Config) string { return role(c).Command }, whole: whole},
	}
}

// RoleKeys are the keys a role section may set, as they follow
// "supervisor.ROLE." in Explain's keys; each inherits "supervisor.KEY".
var RoleKeys = []string{"backend", "base_url", "model", "api_key_env", "timeout", "max_tokens", "command"}

func allFields() []field {
	out := append([]field(nil), fields...)
	for _, name := range RoleNames {
		out = append(out, roleFields(name)...)
	}
	return out
}

func joinList(l []string) string {
	if len(l) == 0 {
		return ""
	}
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func intString(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

var fields = []field{
	{key: "coder", get: func(c Config) string { return c.Coder }},
	{key: "theme", get: func(c Config) string { return c.Theme }},
	{key: "reduce_motion", get: func(c Config) string {
		if c.ReduceMotion != nil {
			return strconv.FormatBool(*c.ReduceMotion)
		}
		return ""
	}},
	{key: "verify.commands", get: func(c Config) string { return joinList(c.Verify.Commands) }},
	{key: "verify.timeout", get: func(c Config) string { return c.Verify.Timeout }},
	{key: "sandbox.allow_hosts", get: func(c Config) string { return joinList(c.Sandbox.AllowHosts) }, list: true},
	{key: "sandbox.hidden", get: func(c Config) string { return joinList(c.Sandbox.Hidden) }, list: true},
	{key: "sandbox.readable", get: func(c Config) string { return joinList(c.Sandbox.Readable) }, list: true},
	{key: "sandbox.ssh_agent", get: func(c Config) string {
		if c.Sandbox.SSHAgent {
			return "true"
		}
		return ""
	}},
	{key: "sandbox.pids_max", get: func(c Config) string {
		if c.Sandbox.PidsMax != 0 {
			return strconv.Itoa(c.Sandbox.PidsMax)
		}
		return ""
	}},
	{key: "exec.writable", get: func(c Config) string { return joinList(c.Exec.Writable) }, list: true},
	{key: "exec.checkpoint_max_file_mib", get: func(c Config) string { return intString(c.Exec.CheckpointMaxFileMiB) }},
	{key: "exec.checkpoint_max_total_mib", get: func(c Config) string { return intString(c.Exec.CheckpointMaxTotalMiB) }},
	{key: "supervisor.backend", get: func(c Config) string { return c.Supervisor.Backend }, whole: baseWhole},
	{key: "supervisor.base_url", get: func(c Config) string { return c.Supervisor.BaseURL }, whole: baseWhole},
	{key: "supervisor.model", get: func(c Config) string { return c.Supervisor.Model }, whole: baseWhole},
	{key: "supervisor.api_key_env", get: func(c Config) string { return c.Supervisor.APIKeyEnv }, whole: baseWhole},
	{key: "supervisor.timeout", get: func(c Config) string { return c.Supervisor.Timeout }, whole: baseWhole},
	{key: "supervisor.prompts", get: func(c Config) string { return c.Supervisor.Prompts }, whole: baseWhole},
	{key: "supervisor.max_tokens", get: func(c Config) string { return intString(c.Supervisor.MaxTokens) }, whole: baseWhole},
	{key: "supervisor.command", get: func(c Config) string { return c.Supervisor.Command }, whole: baseWhole},
	{key: "service.require_launcher", get: func(c Config) string { return boolString(c.Service.RequireLauncher) }, userOnly: true},
	{key: "service.allowed_apps", get: func(c Config) string { return joinList(c.Service.AllowedApps) }, list: true, userOnly: true},
	{key: "service.blocked_dirs", get: func(c Config) string { return joinList(c.Service.BlockedDirs) }, list: true, userOnly: true},
	{key: "service.denied_executables", get: func(c Config) string { return joinList(c.Service.DeniedExecutables) }, list: true, userOnly: true},
	{key: "service.grace", get: func(c Config) string { return c.Service.Grace }, userOnly: true},
	{key: "service.scan_interval", get: func(c Config) string { return c.Service.ScanInterval }, userOnly: true},
	{key: "notify.command", get: func(c Config) string { return c.Notify.Command }, userOnly: true},
	{key: "notify.desktop", get: func(c Config) string {
		if c.Notify.Desktop == nil {
			return ""
		}
		return strconv.FormatBool(*c.Notify.Desktop)
	}, userOnly: true},
	{key: "notify.bell", get: func(c Config) string { return optBool(c.Notify.Bell) }},
	{key: "notify.title", get: func(c Config) string { return optBool(c.Notify.Title) }},
	{key: "notify.terminal", get: func(c Config) string { return c.Notify.Terminal }},
	{key: "notify.push", get: func(c Config) string { return c.Notify.Push }, userOnly: true},
	{key: "notify.push_topic", get: func(c Config) string { return c.Notify.PushTopic }, userOnly: true},
	{key: "service.web", get: func(c Config) string { return c.Service.Web }, userOnly: true},
	{key: "service.web_url", get: func(c Config) string { return c.Service.WebURL }, userOnly: true},
	{key: "service.web_cert", get: func(c Config) string { return c.Service.WebCert }, userOnly: true},
	{key: "service.web_key", get: func(c Config) string { return c.Service.WebKey }, userOnly: true},
}

func optBool(b *bool) string {
	if b == nil {
		return ""
	}
	return strconv.FormatBool(*b)
}

func boolString(b bool) string {
	if !b {
		return ""
	}
	return "true"
}

// Explain is LoadProject's result key by key: every key with its effective
// value from the files and the file that set it ("" Source: no file sets
// it, the caller's flags, environment or default decide). A project value
// left out because the file is not trusted is named in Note. It follows
// Load's rules exactly: a later file replaces a key, lists add up, and a
// file that names a [supervisor] backend sets that whole section.
func Explain(projectRoot string) ([]Setting, error) {
	type layer struct {
		name    string
		c       Config
		ignored Config // what the layer had but was not used
		project bool
		own     Config // the project file as written
	}
	var layers []layer
	if dir, err := os.UserConfigDir(); err == nil {
		path := filepath.Join(dir, "sentinel", "config.toml")
		fc, err := LoadFile(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return nil, err
		default:
			layers = append(layers, layer{name: "user " + path, c: fc})
		}
	}
	if projectRoot != "" {
		pf, err := ReadProject(projectRoot)
		if err != nil {
			return nil, err
		}
		if pf.Present {
			l := layer{name: "project " + pf.Path, c: pf.Honoured(), project: true, own: pf.Config}
			if len(pf.Ignored()) > 0 {
				l.ignored = pf.Config
			}
			layers = append(layers, l)
		}
	}
	var out []Setting
	for _, f := range allFields() {
		s := Setting{Key: f.key}
		var from []string
		for _, l := range layers {
			if f.userOnly && l.project {
				if v := f.get(l.own); v != "" {
					s.Note = "ignored " + v + " from " + strings.TrimPrefix(l.name, "project ") + ": [service] and [notify] are read only from the user config"
				}
				continue
			}
			v := f.get(l.c)
			// A layer naming a backend sets that whole section.
			whole := f.whole != nil && f.whole(l.c)
			switch {
			case v != "" && f.list:
				s.Value = strings.TrimSuffix(s.Value, "]")
				if s.Value != "" {
					v = s.Value + ", " + strings.TrimPrefix(v, "[")
				}
				s.Value = v
				from = append(from, l.name)
			case v != "" || whole:
				s.Value = v
				from = []string{l.name}
				if v == "" {
					from = nil
				}
			}
			if iv := f.get(l.ignored); iv != "" && iv != v {
				s.Note = "ignored " + iv + " from " + strings.TrimPrefix(l.name, "project ") + ": the file is not trusted (sentinel config trust)"
			}
		}
		s.Source = strings.Join(from, " + ")
		out = append(out, s)
	}
	return out, nil
}
