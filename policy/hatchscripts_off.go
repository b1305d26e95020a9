package policy

import (
	"errors"
	"io/fs"
	"os"
	"regexp"
	"strings"

	"github.com/BurntSushi/toml"
)

// `hatch run ENV:NAME` with the sandbox off (issue 32, off28): `hatch run
// lint:all`, `hatch run test:cov`. Hatch runs NAME in the environment ENV:
// a script the project defines ([tool.hatch.envs.ENV.scripts] in
// pyproject.toml, [envs.ENV.scripts] in hatch.toml) or, when there is no
// such script, the program NAME. Off, the script's commands are the
// project's own text, judged as shell lines one by one as a Makefile's
// recipes are (the words after NAME added, as hatch adds them); a script
// the workspace does not define is NAME judged as a program (uv run's
// way), so an unknown one still asks. Inside the sandbox every form was
// already the project's code.

var hatchEnvName = lazy[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.-]+$`) }}

// hatchScriptOff rewrites cmd, the command of `hatch run`, when its first
// word is ENV:NAME: it returns the shell lines of the project's script, or
// the command NAME ARGS when the workspace defines no such script.
func (x *cmdCtx) hatchScriptOff(cmd []word) (lines []string, rest []word, ok bool) {
	if len(cmd) == 0 || !cmd[0].static {
		return nil, nil, false
	}
	env, name, has := strings.Cut(cmd[0].val, ":")
	if !has || name == "" || !hatchEnvName.get().MatchString(env) {
		return nil, nil, false
	}
	script, found := x.hatchScript(env, name)
	switch found {
	case hatchUnknown:
		return nil, nil, false
	case hatchAbsent:
		return nil, append([]word{{val: name, static: true}}, cmd[1:]...), true
	}
	if !allStatic(cmd[1:]) {
		return nil, nil, false
	}
	extra := strings.Join(quoteAll(vals(cmd[1:])), " ")
	for _, l := range script {
		if strings.Contains(l, "{args") {
			l = strings.NewReplacer("{args}", extra).Replace(l)
			if strings.Contains(l, "{args") {
				return nil, nil, false // {args:default}: not read here
			}
		} else if extra != "" {
			l += " " + extra
		}
		if strings.Contains(l, "{") {
			return nil, nil, false // {home}, {root}, {env:VAR}, {/}: hatch fills them in
		}
		lines = append(lines, l)
	}
	return lines, nil, true
}

// hatchFind is what hatchScript learned of a script name.
type hatchFind int

const (
	hatchAbsent  hatchFind = iota // no environment of a readable project defines it
	hatchFound                    // ENV's own script
	hatchUnknown                  // not knowable here: ask
)

// hatchScript finds the script NAME of environment ENV in the workspace's
// pyproject.toml or hatch.toml. A file that cannot be read or parsed, one
// the line writes first, or a NAME another environment defines (hatch
// environments inherit scripts through `template`, default "default",
// and matrices) is hatchUnknown.
func (x *cmdCtx) hatchScript(env, name string) ([]string, hatchFind) {
	if x.c.ws == "" || x.cw.unknown || x.writtenBefore() {
		return nil, hatchUnknown
	}
	var all []map[string]any
	for _, f := range []string{"pyproject.toml", "hatch.toml"} {
		p := x.c.canon(rawJoin(x.c.ws, f))
		if !within(p, x.c.ws) {
			continue
		}
		b, err := os.ReadFile(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil || len(b) > 1<<20 {
			return nil, hatchUnknown
		}
		var doc map[string]any
		if toml.Unmarshal(b, &doc) != nil {
			return nil, hatchUnknown
		}
		envs := tomlPath(doc, "envs")
		if f == "pyproject.toml" {
			envs = tomlPath(doc, "tool", "hatch", "envs")
		}
		all = append(all, envs)
	}
	for _, envs := range all {
		s, ok := tomlPath(envs, env, "scripts")[name]
		if !ok {
			continue
		}
		switch v := s.(type) {
		case string:
			return []string{v}, hatchFound
		case []any:
			var out []string
			for _, e := range v {
				str, ok := e.(string)
				if !ok {
					return nil, hatchUnknown
				}
				out = append(out, str)
			}
			if len(out) == 0 {
				return nil, hatchUnknown
			}
			return out, hatchFound
		}
		return nil, hatchUnknown
	}
	for _, envs := range all {
		for other := range envs {
			if _, ok := tomlPath(envs, other, "scripts")[name]; ok {
				return nil, hatchUnknown // inherited, or a matrix's: not followed here
			}
		}
	}
	return nil, hatchAbsent
}

// tomlPath walks nested tables; nil when a step is missing.
func tomlPath(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		next, ok := m[k].(map[string]any)
		if !ok {
			return nil
		}
		m = next
	}
	return m
}

// quoteAll quotes every word as one shell word (shellQuote).
func quoteAll(vs []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = shellQuote(v) // parallel.go
	}
	return out
}

// hatchScriptLines judges the lines of the project's script as the line's
// own commands.
func (x *cmdCtx) hatchScriptLines(script string, lines []string) {
	x.add(Allow, RuleBuildProject, "hatch run runs the project's own script "+quoteShort(script)+", as `make test` runs a target (--sandbox off)")
	x.inWorkspace()
	for _, l := range lines {
		sub := x.cw.copy()
		x.c.shell(l, &sub, x.s.depth+1, "hatch runs "+script)
	}
}
