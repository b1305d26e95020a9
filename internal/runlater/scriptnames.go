package runlater

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// An executable the person's own runner files name literally runs when
// the person runs them: a recipe of their Makefile or justfile
// (`./scripts/test.sh`, `sh scripts/gen`), a package.json script, a
// command of their .envrc. Changed, it is run-later for the person like
// the file that names it. Only a word with a slash is a path here (a bare
// word is a program found on PATH), none built from a variable.

// maxNamed bounds the names one file gives.
const maxNamed = 256

// namedRun is a word a recipe, script or command runs, with the recipe,
// script or target that does ("" when none).
type namedRun struct{ word, in string }

// Named is an executable a person's runner file names: its absolute path
// and how it is run ("your Makefile runs it (target test)").
type Named struct{ Path, How string }

// runWords are the words of the shell line s that name a file to run:
// a command's first word, or an interpreter's (or exec's, env's,
// source's) first operand; an output or input file is not one.
func runWords(s, in string) []namedRun {
	var out []namedRun
	for _, cmd := range envrcCommands(s) {
		for len(cmd) > 0 && strings.Contains(cmd[0], "=") && !strings.Contains(cmd[0], "/") {
			cmd = cmd[1:] // VAR=value before the command
		}
		for len(cmd) > 1 {
			base := filepath.Base(cmd[0])
			if !interpreters[base] && base != "exec" && base != "env" && base != "source" && base != "." && base != "time" && base != "npx" && base != "uv" && base != "run" {
				break
			}
			i := 1
			for i < len(cmd) && strings.HasPrefix(cmd[i], "-") {
				i++
			}
			cmd = cmd[i:]
		}
		if len(cmd) == 0 {
			continue
		}
		w := cmd[0]
		if !strings.Contains(w, "/") || strings.ContainsAny(w, "$=`*?") || strings.HasPrefix(w, "-") || strings.Contains(w, "://") || filepath.IsAbs(w) {
			continue
		}
		out = append(out, namedRun{w, in})
	}
	return out
}

// recipeRuns are the files a makefile's recipe line names, under target.
func recipeRuns(line, target string) []namedRun {
	return runWords(strings.TrimLeft(strings.TrimPrefix(line, "\t"), "@+- \t"), target)
}

// ruleTarget is the first target of a rule line (`test: build`), not an
// assignment or a directive.
func ruleTarget(line string) (string, bool) {
	if makeAssign().MatchString(strings.TrimSpace(line)) || strings.HasPrefix(line, " ") {
		return "", false
	}
	head, _, ok := strings.Cut(line, ":")
	if !ok || strings.ContainsAny(head, "$=") {
		return "", false
	}
	f := strings.Fields(head)
	if len(f) == 0 {
		return "", false
	}
	return f[0], true
}

// resolve makes each of runs absolute under dir, with how (given the
// target or script) saying what runs it.
func resolve(dir string, runs []namedRun, how func(in string) string) []Named {
	var out []Named
	for _, r := range runs {
		if len(out) >= maxNamed {
			break
		}
		out = append(out, Named{filepath.Join(dir, filepath.FromSlash(r.word)), how(r.in)})
	}
	return out
}

// Runs are the files the makefile's recipes name to run, relative to
// where its make runs; rel is its path as the flag names it.
func (m Makefile) Runs(rel string) []Named {
	return resolve(m.Dir, m.runs, func(in string) string {
		if in == "" {
			return "your " + rel + " runs it"
		}
		return "your " + rel + " runs it (target " + in + ")"
	})
}

// PackageScripts are the files a package.json's scripts name to run.
func PackageScripts(file, rel string) []Named {
	b, err := readRegular(file, maxMakefile)
	if err != nil {
		return nil
	}
	var pkg struct {
		Scripts map[string]any `json:"scripts"`
	}
	if json.Unmarshal(b, &pkg) != nil {
		return nil
	}
	var runs []namedRun
	for name, v := range pkg.Scripts {
		if s, ok := v.(string); ok {
			runs = append(runs, runWords(s, name)...)
		}
	}
	return resolve(filepath.Dir(file), runs, func(in string) string { return "your " + rel + " runs it (script " + in + ")" })
}

// JustfileRuns are the files a justfile's recipes name to run.
func JustfileRuns(file, rel string) []Named {
	b, err := readRegular(file, maxMakefile)
	if err != nil {
		return nil
	}
	var runs []namedRun
	recipe := ""
	for _, line := range strings.Split(string(b), "\n") {
		if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			runs = append(runs, runWords(strings.TrimLeft(line, " \t@-"), recipe)...)
			continue
		}
		recipe = ""
		if head, _, ok := strings.Cut(line, ":"); ok && !strings.Contains(line, ":=") {
			if f := strings.Fields(strings.TrimLeft(head, "@")); len(f) > 0 {
				recipe = f[0]
			}
		}
	}
	return resolve(filepath.Dir(file), runs, func(in string) string { return "your " + rel + " runs it (recipe " + in + ")" })
}

// EnvrcRuns are the files an .envrc's commands name to run.
func EnvrcRuns(file, rel string) []Named {
	b, err := readRegular(file, maxEnvrc)
	if err != nil {
		return nil
	}
	return resolve(filepath.Dir(file), runWords(string(b), ""), func(string) string { return "your " + rel + " runs it (direnv, on cd)" })
}

// HookRuns are the files a git hook script names to run; git runs a hook
// in the top folder of the work tree (workTree), so a relative name is
// taken from there.
func HookRuns(file, rel, workTree string) []Named {
	b, err := readRegular(file, maxEnvrc)
	if err != nil {
		return nil
	}
	name := filepath.Base(file)
	return resolve(workTree, runWords(string(b), ""), func(string) string { return "your git hook " + rel + " runs it (on " + name + ")" })
}

// PreCommitRuns are the files the local hooks of a .pre-commit-config.yaml
// (at the top of workTree, where pre-commit runs them) name in their
// `entry:` lines: pre-commit runs them at each commit once installed as
// the git hook, and in CI.
func PreCommitRuns(file, rel, workTree string) []Named {
	b, err := readRegular(file, maxMakefile)
	if err != nil {
		return nil
	}
	var runs []namedRun
	for _, line := range strings.Split(string(b), "\n") {
		t := strings.TrimLeft(strings.TrimSpace(line), "- ")
		v, ok := strings.CutPrefix(t, "entry:")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		w := strings.Fields(v)
		if len(w) > 0 && !strings.Contains(w[0], "/") && !interpreters[filepath.Base(w[0])] {
			w[0] = "./" + w[0] // language: script takes a bare name from the top of the tree
		}
		runs = append(runs, runWords(strings.Join(w, " "), "")...)
	}
	return resolve(workTree, runs, func(string) string { return "your " + rel + " runs it (pre-commit, on commit)" })
}
