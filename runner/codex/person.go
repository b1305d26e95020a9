package codex

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/BurntSushi/toml"
)

// Person is the person's own Codex setup, read from their CODEX_HOME
// ($CODEX_HOME, else ~/.codex). Sentinel only reads it: the run gets a
// rewritten config.toml and copies of the files it needs (Plan), never the
// person's files themselves.
type Person struct {
	Dir string // their CODEX_HOME
	// Config is config.toml decoded; nil when there is none.
	Config map[string]any
	// Auth is what auth.json holds: "apikey", "chatgpt", or "" when there
	// is no auth.json (or it holds neither).
	Auth string
}

// PersonDir is the person's CODEX_HOME: the variable when set, else
// ~/.codex under home; "" when neither is known.
func PersonDir(getenv func(string) string, home string) string {
	if d := getenv("CODEX_HOME"); d != "" {
		return d
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".codex")
}

// LoadPerson reads the person's config.toml and looks at their auth.json in
// dir. A missing dir or file is no error (nothing is taken from it); one
// that cannot be parsed is, with the file named.
func LoadPerson(dir string) (*Person, error) {
	p := &Person{Dir: dir}
	if dir == "" {
		return p, nil
	}
	cfgPath := filepath.Join(dir, "config.toml")
	b, err := os.ReadFile(cfgPath)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("codex: read your %s: %w", cfgPath, err)
	default:
		p.Config = map[string]any{}
		if _, err := toml.Decode(string(b), &p.Config); err != nil {
			return nil, fmt.Errorf("codex: your %s does not parse: %v (fix it; `codex` itself would refuse it too)", cfgPath, err)
		}
	}
	authPath := filepath.Join(dir, "auth.json")
	if b, err := os.ReadFile(authPath); err == nil {
		var a struct {
			Key    *string         `json:"OPENAI_API_KEY"`
			Tokens json.RawMessage `json:"tokens"`
			Mode   string          `json:"auth_mode"`
		}
		if json.Unmarshal(b, &a) != nil {
			return nil, fmt.Errorf("codex: your %s is not JSON (sign in again with: codex login)", authPath)
		}
		switch {
		case len(a.Tokens) > 0 && string(a.Tokens) != "null":
			p.Auth = "chatgpt"
		case a.Key != nil && *a.Key != "":
			p.Auth = "apikey"
		}
	}
	return p, nil
}

// setting is the person's top-level value for key. Profiles are not read:
// Codex 0.171.0 refuses a config.toml that selects one ("legacy `profile`
// config is no longer supported"); its profiles are <name>.config.toml
// files chosen with --profile, which Sentinel never passes or copies.
func (p *Person) setting(key string) (any, bool) {
	if p == nil || p.Config == nil {
		return nil, false
	}
	v, ok := p.Config[key]
	return v, ok
}

func (p *Person) str(key string) string {
	v, _ := p.setting(key)
	s, _ := v.(string)
	return s
}

// table is the person's top-level table key (model_providers, mcp_servers).
func (p *Person) table(key string) map[string]any {
	if p == nil || p.Config == nil {
		return nil
	}
	t, _ := p.Config[key].(map[string]any)
	return t
}

// instructionFiles are the person's global instructions in CODEX_HOME that
// Codex reads at the start of a thread (AGENTS.override.md wins over
// AGENTS.md).
var instructionFiles = []string{"AGENTS.md", "AGENTS.override.md"}
