package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v4"

	"github.com/sentinelhq/sentinel/policy"
)

type validator struct {
	name string
	fn   func([]byte) error
}

var validators = map[string]validator{
	"json": {"json", func(b []byte) error {
		var v any
		d := json.NewDecoder(bytes.NewReader(b))
		if err := d.Decode(&v); err != nil {
			return err
		}
		if d.More() {
			return fmt.Errorf("more than one JSON value")
		}
		return nil
	}},
	"yaml": {"yaml", func(b []byte) error {
		d := yaml.NewDecoder(bytes.NewReader(b))
		for {
			var v any
			err := d.Decode(&v)
			if err != nil {
				if errors.Is(err, io.EOF) {
					return nil
				}
				return err
			}
		}
	}},
	"toml": {"toml", func(b []byte) error {
		var v map[string]any
		_, err := toml.Decode(string(b), &v)
		return err
	}},
	"go": {"go", func(b []byte) error {
		_, err := parser.ParseFile(token.NewFileSet(), "edit.go", b, parser.AllErrors)
		return err
	}},
	"sh": {"sh", func(b []byte) error {
		rd := policy.Read(string(b))
		if err := tooDeep("the script", rd); err != nil {
			return err
		}
		_, err := rd.Line()
		return err
	}},
}

var validatorExt = map[string]string{
	".json": "json", ".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".go": "go", ".sh": "sh", ".bash": "sh",
}

// validatorFor picks the check an edit gets: by name, or (auto) by the
// file's extension.
func validatorFor(name, path string) (validator, error) {
	switch name {
	case "none":
		return validator{}, nil
	case "", "auto":
		if v, ok := validatorExt[strings.ToLower(filepath.Ext(path))]; ok {
			return validators[v], nil
		}
		return validator{}, nil
	}
	if v, ok := validators[name]; ok {
		return v, nil
	}
	return validator{}, &Refusal{Class: ClassBadInput, Reason: fmt.Sprintf("validate %q is unknown", name), Use: "use auto, none, json, yaml, toml, go, sh, python, nginx or systemd"}
}
