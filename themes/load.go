package themes

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// Dir is where user themes live: os.UserConfigDir()/sentinel/themes.
func Dir() (string, error) {
	d, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find user config directory for themes: %w", err)
	}
	return filepath.Join(d, "sentinel", "themes"), nil
}

// LoadFile reads one user theme. The name is the file's base name unless the
// file sets name. Unknown keys and bad colours are errors naming the file.
func LoadFile(path string) (Palette, error) {
	var p Palette
	md, err := toml.DecodeFile(path, &p)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return p, fmt.Errorf("theme %s line %d: %s", path, pe.Position.Line, pe.Message)
		}
		return p, fmt.Errorf("theme %s: %w", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return p, fmt.Errorf("theme %s: unknown key %q (see the keys of the built-in themes)", path, und[0].String())
	}
	if p.Name == "" {
		p.Name = strings.TrimSuffix(filepath.Base(path), ".toml")
	}
	p, err = p.complete()
	if err != nil {
		return p, fmt.Errorf("theme %s: %w", path, err)
	}
	return p, nil
}

// LoadDir reads every *.toml theme in dir. A missing directory is no themes,
// not an error. A bad file is reported and skipped; the rest still load.
func LoadDir(dir string) (map[string]Palette, []error) {
	out := map[string]Palette{}
	files, err := filepath.Glob(filepath.Join(dir, "*.toml"))
	if err != nil {
		return out, []error{fmt.Errorf("list themes in %s: %w", dir, err)}
	}
	sort.Strings(files)
	var errs []error
	for _, f := range files {
		p, err := LoadFile(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out[p.Name] = p
	}
	return out, errs
}

// Resolve picks the palette for name: "" or "auto" chooses dark or light from
// the terminal background; a built-in name or a user theme name is used as
// is. User themes shadow built-ins of the same name.
func Resolve(name string, darkBackground bool, user map[string]Palette) (Palette, error) {
	if name == "" || name == "auto" {
		if darkBackground {
			return Dark, nil
		}
		return Light, nil
	}
	if p, ok := user[name]; ok {
		return p, nil
	}
	if p, ok := Builtin(name); ok {
		return p, nil
	}
	names := []string{NameDark, NameLight, NameHighContrast}
	for n := range user {
		names = append(names, n)
	}
	sort.Strings(names[3:])
	return Dark, fmt.Errorf("theme %q not found (have: auto, %s; user themes go in %s)", name, strings.Join(names, ", "), dirHint())
}

func dirHint() string {
	d, err := Dir()
	if err != nil {
		return "<user config>/sentinel/themes"
	}
	return d
}

// NoColorEnv reports whether the NO_COLOR convention asks for no colour:
// the variable is set and not empty.
func NoColorEnv(getenv func(string) string) bool {
	return getenv("NO_COLOR") != ""
}
