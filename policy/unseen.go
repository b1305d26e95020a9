package policy

import (
	"path"
	"path/filepath"
	"strings"
)

// RuleUnseenText: a program reads its program, script, build file or
// settings from standard input, a descriptor or a process substitution:
// text nobody has seen (`make -f /dev/stdin <<< …`, `… | make -f -`,
// `make -f <(printf …)`, `curl -K -`).
const RuleUnseenText = "shell.unseen-text"

// codeFileOpts names, per program, the options whose value is a file the
// program runs or obeys: a makefile, a script, an init script, a config
// that names plugins or uploads. Short options are one letter after "-"
// (their value may be attached: -f-), long ones start with "--" (value
// after "=" or in the next word). Interpreters and shells reading a script
// from a stream are judged by their own handlers (shell.interpreter-stdin).
var codeFileOpts = lazy[map[string][]string]{build: func() map[string][]string {
	return map[string][]string{
		"make":          {"-f", "--file", "--makefile"},
		"gmake":         {"-f", "--file", "--makefile"},
		"bmake":         {"-f"},
		"just":          {"-f", "--justfile"},
		"task":          {"-t", "--taskfile"},
		"rake":          {"-f", "--rakefile"},
		"ninja":         {"-f"},
		"cmake":         {"-P", "-C", "--toolchain"},
		"gradle":        {"-b", "--build-file", "-c", "--settings-file", "-I", "--init-script"},
		"mvn":           {"-f", "--file", "-s", "--settings", "-gs", "--global-settings", "-t", "--toolchains"},
		"mvnd":          {"-f", "--file", "-s", "--settings"},
		"sbt":           {"--script"},
		"awk":           {"-f", "--file", "-i", "--include", "-E", "--exec"},
		"gawk":          {"-f", "--file", "-i", "--include", "-E", "--exec"},
		"mawk":          {"-f"},
		"nawk":          {"-f"},
		"sed":           {"-f", "--file"},
		"gsed":          {"-f", "--file"},
		"jq":            {"-f", "--from-file"},
		"gojq":          {"-f", "--from-file"},
		"yq":            {"--from-file"},
		"bash":          {"--rcfile", "--init-file"},
		"curl":          {"-K", "--config"},
		"wget":          {"--config"},
		"pytest":        {"-c", "--config-file"},
		"tox":           {"-c", "--conf"},
		"nox":           {"-f", "--noxfile"},
		"jest":          {"-c", "--config"},
		"vitest":        {"-c", "--config"},
		"mocha":         {"--config"},
		"eslint":        {"-c", "--config"},
		"prettier":      {"--config"},
		"webpack":       {"-c", "--config"},
		"rollup":        {"-c", "--config"},
		"vite":          {"-c", "--config"},
		"babel":         {"--config-file"},
		"golangci-lint": {"-c", "--config"},
		"ruff":          {"--config"},
		"mypy":          {"--config-file"},
		"pylint":        {"--rcfile"},
		"rspec":         {"-O", "--options"},
		"bundle":        {"--gemfile"},
		"npm":           {"--userconfig", "--globalconfig"},
		"git":           {"--exec-path"},
		"ssh":           {"-F"},
		"docker":        {"-f", "--file"},
		"podman":        {"-f", "--file"},
	}
}}

// unseenWrappers are wrapper scripts projects ship for a tool.
func unseenProgram(prog string) string {
	switch strings.ToLower(filepath.Base(prog)) {
	case "gradlew", "gradlew.bat":
		return "gradle"
	case "mvnw", "mvnw.cmd":
		return "mvn"
	}
	if b, ok := resolvedProgram(prog); ok {
		return b
	}
	return prog
}

// judgeUnseen asks when a program is given its program, build file or
// settings through a stream.
func (x *cmdCtx) judgeUnseen(args []word) {
	prog := unseenProgram(args[0].val)
	opts := codeFileOpts.get()[prog]
	if len(opts) == 0 {
		return
	}
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		if a.val == "--" && a.static {
			return
		}
		if !strings.HasPrefix(a.val, "-") || a.procSubst {
			continue
		}
		for _, o := range opts {
			var val word
			found := false
			switch {
			case a.val == o:
				if i+1 < len(rest) {
					val, found = rest[i+1], true
				}
			case strings.HasPrefix(o, "--") && strings.HasPrefix(a.val, o+"="):
				val, found = word{val: a.val[len(o)+1:], static: a.static}, true
			case !strings.HasPrefix(o, "--") && len(o) == 2 && !strings.HasPrefix(a.val, "--") &&
				strings.HasPrefix(a.val, o) && len(a.val) > 2:
				// -f- / -f/dev/stdin: the value attached
				val, found = word{val: a.val[2:], static: a.static}, true
			}
			if found && x.unseenStream(val) {
				x.add(Ask, RuleUnseenText, prog+" "+o+" reads "+describeStream(val)+": text nobody has seen")
				return
			}
		}
	}
}

// unseenStream is the package's unseenStream for a relative name too:
// make -f ../../dev/stdin from two folders down is make -f /dev/stdin,
// and so is a workspace link to it. The name is joined to every working
// directory the command may run in and resolved; with none known, the
// leading ../ are taken to reach the root.
func (x *cmdCtx) unseenStream(w word) bool {
	if unseenStream(w) {
		return true
	}
	if !w.static || w.val == "" || strings.HasPrefix(w.val, "/") {
		return false
	}
	ps := x.resolve(w)
	for _, p := range ps {
		if unseenStream(word{val: p, static: true}) {
			return true
		}
	}
	if ps != nil {
		return false
	}
	v := path.Clean(w.val)
	for strings.HasPrefix(v, "../") {
		v = v[len("../"):]
	}
	return unseenStream(word{val: "/" + v, static: true})
}

// unseenStream reports a file name that is a stream rather than a file
// anyone can read first: "-", standard input, a descriptor or a process
// substitution.
func unseenStream(w word) bool {
	if w.procSubst {
		return true
	}
	if !w.static {
		return false // judged as a dynamic argument
	}
	v := w.val
	if strings.HasPrefix(v, "/") {
		v = path.Clean(v) // //dev/stdin, /dev/./stdin, /dev/../dev/stdin, /dev/stdin/
	}
	if v == "-" || v == "/dev/stdin" || strings.HasPrefix(v, "/dev/fd/") {
		return true
	}
	if rest, ok := strings.CutPrefix(v, "/proc/"); ok {
		pid, tail, _ := strings.Cut(rest, "/")
		if (pid == "self" || pid == "thread-self" || isDigits(pid)) && (strings.HasPrefix(tail, "fd/") || tail == "fd") {
			return true
		}
	}
	return false
}

func describeStream(w word) string {
	switch {
	case w.procSubst:
		return "a process substitution's output"
	case w.val == "-" || path.Clean(w.val) == "/dev/stdin":
		return "its standard input"
	}
	return w.val + ", a descriptor"
}
