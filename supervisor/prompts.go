package supervisor

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/template"

	"github.com/BurntSushi/toml"
)

//go:embed prompts.toml
var builtinPrompts string

// The prompt keys, "section.name". A prompts file may set any of them and
// nothing else.
var promptKeys = []string{
	"judge.system", "judge.user",
	"review.system", "review.user",
	"check.system", "check.user",
	"relay.system", "relay.user",
	"adversary.system", "adversary.user",
	"steer.masked_exit", "steer.skipped_test", "steer.deleted_test",
	"steer.edited_expectation", "steer.repeated_failure",
}

// Prompts holds every prompt text as a parsed template.
type Prompts struct {
	tmpl   map[string]*template.Template
	source map[string]string // key → "file:line" it came from
}

// DefaultPrompts are the built-in prompts (prompts.toml, embedded).
func DefaultPrompts() *Prompts {
	p, err := parsePrompts(nil, "built-in prompts.toml", builtinPrompts)
	if err != nil {
		panic(err) // a test pins that the embedded file parses
	}
	return p
}

// LoadPrompts returns the built-in prompts with the keys of the file at path
// replacing theirs. An empty path means the built-in prompts alone. A file
// that is not valid TOML, sets an unknown key, sets a key to something other
// than text or holds a broken template is an error naming the file, the line
// and the key.
func LoadPrompts(path string) (*Prompts, error) {
	base := DefaultPrompts()
	if path == "" {
		return base, nil
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("prompts file %s: %w (fix "+EnvPrompts+" or [supervisor] prompts)", path, err)
	}
	return parsePrompts(base, path, string(src))
}

func parsePrompts(base *Prompts, file, src string) (*Prompts, error) {
	var top map[string]any
	if _, err := toml.Decode(src, &top); err != nil {
		var perr toml.ParseError
		if errors.As(err, &perr) {
			return nil, fmt.Errorf("%s:%d: %s (fix the TOML syntax)", file, perr.Position.Line, perr.Message)
		}
		return nil, fmt.Errorf("%s: %v (each prompt goes in a [section] as key = \"\"\"text\"\"\")", file, err)
	}
	p := &Prompts{tmpl: map[string]*template.Template{}, source: map[string]string{}}
	if base != nil {
		for k, t := range base.tmpl {
			p.tmpl[k], p.source[k] = t, base.source[k]
		}
	}
	raw := map[string]map[string]any{}
	for sec, v := range top {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s:%d: %q is not a [section]: prompts go in sections such as [judge] (known keys: %s)",
				file, keyLine(src, "", sec), sec, strings.Join(promptKeys, ", "))
		}
		raw[sec] = m
	}
	known := map[string]bool{}
	for _, k := range promptKeys {
		known[k] = true
	}
	sections := make([]string, 0, len(raw))
	for s := range raw {
		sections = append(sections, s)
	}
	sort.Strings(sections)
	for _, sec := range sections {
		names := make([]string, 0, len(raw[sec]))
		for n := range raw[sec] {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, name := range names {
			key := sec + "." + name
			line := keyLine(src, sec, name)
			if !known[key] {
				return nil, fmt.Errorf("%s:%d: unknown prompt key %q (known: %s)", file, line, key, strings.Join(promptKeys, ", "))
			}
			text, ok := raw[sec][name].(string)
			if !ok {
				return nil, fmt.Errorf("%s:%d: prompt %q must be text (a \"\"\"quoted\"\"\" string)", file, line, key)
			}
			t, err := template.New(key).Option("missingkey=error").Parse(strings.TrimSpace(text))
			if err != nil {
				return nil, fmt.Errorf("%s:%d: prompt %q: %v", file, line, key, err)
			}
			if err := t.Execute(io.Discard, sampleData(sec)); err != nil {
				return nil, fmt.Errorf("%s:%d: prompt %q uses a field it does not have: %v", file, line, key, err)
			}
			p.tmpl[key], p.source[key] = t, fmt.Sprintf("%s:%d", file, line)
		}
	}
	for _, k := range promptKeys {
		if p.tmpl[k] == nil {
			return nil, fmt.Errorf("%s: prompt %q is missing", file, k)
		}
	}
	return p, nil
}

// sampleData is an empty value of the data each section's prompts get, so a
// field name the prompt does not have fails when the file loads.
func sampleData(section string) any {
	switch section {
	case "judge":
		return judgeFacts{}
	case "review":
		return reviewFacts{}
	case "adversary":
		return adversaryFacts{}
	case "relay":
		return relayFacts{}
	case "steer":
		return map[string]string{"Detail": ""}
	}
	return nil
}

// Render fills the prompt key with data. An error names where the prompt
// came from, so a user's broken override is easy to find.
func (p *Prompts) Render(key string, data any) (string, error) {
	t := p.tmpl[key]
	if t == nil {
		return "", fmt.Errorf("no prompt %q", key)
	}
	var b bytes.Buffer
	if err := t.Execute(&b, data); err != nil {
		return "", fmt.Errorf("prompt %q (%s): %v", key, p.source[key], err)
	}
	return b.String(), nil
}

// Source says which file and line a prompt came from.
func (p *Prompts) Source(key string) string { return p.source[key] }

// keyLine finds the line of name inside [section], for error messages.
func keyLine(src, section, name string) int {
	in := section == ""
	for i, l := range strings.Split(src, "\n") {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, "[") {
			in = strings.Trim(t, "[] ") == section
			continue
		}
		if in && strings.HasPrefix(t, name) {
			rest := strings.TrimSpace(strings.TrimPrefix(t, name))
			if strings.HasPrefix(rest, "=") {
				return i + 1
			}
		}
	}
	return 1
}
