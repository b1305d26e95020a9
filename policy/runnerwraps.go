package policy

import (
	"path/filepath"
	"strings"
)

// Runner wrappers are judged by what they run (issue 32, polcorp6
// probe/runner-wraps, probe/publish-module, spell/publish): npx, pnpm dlx,
// yarn dlx, bunx, npm exec, uvx, pipx run, uv/poetry/pdm/hatch/pipenv/rye
// run, conda/mamba/pixi run, bundle exec, gem exec, mise/asdf/direnv exec
// and nix shell -c each start a command of their own argv. However the
// runner itself is judged (a fetch of a package nobody has seen asks, a
// project environment runs inside the sandbox), the command it starts is
// judged too, as if written directly: when that command is denied
// (`npx rimraf ~`, `npm exec -- rm -rf ~`, `uvx twine upload dist/*`,
// `npx semantic-release`, `npx -y node -e "…execSync('npm publish')"`),
// so is the line. The inner judgment only tightens: its allows and asks
// are left to the runner's own handler, which knows what running through
// it adds (a fetch, a sandbox, the person's own files).

// runnerForm is how one runner spells its command: after a verb (run,
// exec, dlx; "" for none) and the runner's options, of which valued take
// the next word as their value.
type runnerForm struct {
	verbs  []string // the runner's verbs that run a command; nil: no verb
	valued []string // options that take the next word (--name ENV)
	shell  []string // options whose value is a shell line (nix shell -c is argv; nix-shell --run is a line)
}

var runnerForms = lazy[map[string]runnerForm]{build: func() map[string]runnerForm {
	npx := runnerForm{valued: []string{"-p", "--package", "--cache", "--userconfig", "-w", "--workspace"}}
	py := runnerForm{verbs: []string{"run"}, valued: []string{"--extra", "--group", "--package", "--env", "-e", "--directory", "--project", "--python", "-p", "--with", "--from", "--spec", "--pip-args", "--index-url", "-i"}}
	conda := runnerForm{verbs: []string{"run"}, valued: []string{"-n", "--name", "-p", "--prefix", "--cwd", "-e", "--environment", "--manifest-path"}}
	exec := runnerForm{verbs: []string{"exec", "x"}, valued: []string{"--gemfile", "-g", "--version", "-v", "--env", "-E", "-C", "--cd"}}
	return map[string]runnerForm{
		"npx": npx, "pnpx": npx, "bunx": npx,
		"npm":        {verbs: []string{"exec", "x"}, valued: npx.valued},
		"pnpm":       {verbs: []string{"dlx", "exec"}, valued: []string{"--package", "-C", "--dir", "--filter", "-F"}},
		"yarn":       {verbs: []string{"dlx", "exec"}, valued: []string{"-p", "--package"}},
		"bun":        {verbs: []string{"x"}, valued: npx.valued},
		"corepack":   {},
		"uvx":        {valued: py.valued},
		"uv":         {verbs: []string{"run", "tool"}, valued: py.valued}, // uv run CMD, uv tool run TOOL
		"pipx":       py,
		"poetry":     py,
		"pdm":        py,
		"hatch":      py,
		"pipenv":     py,
		"rye":        py,
		"conda":      conda,
		"mamba":      conda,
		"micromamba": conda,
		"pixi":       conda,
		"bundle":     {verbs: []string{"exec"}, valued: []string{"--gemfile"}},
		"gem":        exec,
		"mise":       exec,
		"asdf":       {verbs: []string{"exec"}},
		"rbenv":      {verbs: []string{"exec"}},
		"pyenv":      {verbs: []string{"exec"}},
		"direnv":     {verbs: []string{"exec"}}, // direnv exec DIR CMD: DIR is skipped below
		"nix":        {verbs: []string{"shell", "develop"}, shell: []string{"-c", "--command"}},
		"opam":       {verbs: []string{"exec"}, valued: []string{"--switch"}},
		"stack":      {verbs: []string{"exec"}},
		"cabal":      {verbs: []string{"exec"}},
		"dotnet":     {verbs: []string{"tool"}}, // dotnet tool run TOOL
	}
}}

// runnerInner returns the command a runner line starts, or nil.
func runnerInner(args []word) []word {
	if len(args) < 2 {
		return nil
	}
	prog := filepath.Base(args[0].val)
	form, ok := runnerForms.get()[prog]
	if !ok {
		return nil
	}
	rest := args[1:]
	if form.verbs != nil {
		if !args[1].static || !contains(form.verbs, args[1].val) {
			return nil
		}
		rest = rest[1:]
		switch {
		case prog == "uv" && args[1].val == "tool", prog == "dotnet" && args[1].val == "tool":
			if len(rest) == 0 || rest[0].val != "run" {
				return nil
			}
			rest = rest[1:]
		case prog == "direnv" && len(rest) > 0:
			rest = rest[1:] // direnv exec DIR CMD
		}
	}
	if prog == "nix" {
		// nix shell PKGS… -c CMD ARGS: the command follows -c.
		for i, w := range rest {
			if contains(form.shell, w.val) {
				return rest[i+1:]
			}
		}
		return nil
	}
	for i := 0; i < len(rest); i++ {
		v := rest[i].val
		switch {
		case !rest[i].static:
			return nil
		case v == "--":
			return rest[i+1:]
		case strings.HasPrefix(v, "-") && len(v) > 1:
			if name, _, eq := strings.Cut(v, "="); !eq && contains(form.valued, name) {
				i++
			}
		default:
			inner := append([]word{{val: runnerToolName(prog, v), static: true}}, rest[i+1:]...)
			return inner
		}
	}
	return nil
}

// runnerToolName is the program a runner's package operand runs: the
// package without its version (semantic-release@24, twine==5.1, ruff@0.6),
// a scoped npm package by its name (@changesets/cli is changeset's).
func runnerToolName(prog, spec string) string {
	if strings.HasPrefix(spec, "@") {
		scope, name, ok := strings.Cut(spec[1:], "/")
		if !ok {
			return spec
		}
		name, _, _ = strings.Cut(name, "@")
		if name == "cli" {
			return strings.TrimSuffix(scope, "s")
		}
		return name
	}
	switch prog {
	case "npx", "pnpx", "bunx", "npm", "pnpm", "yarn", "bun", "corepack", "uvx", "pipx", "uv":
		for _, sep := range []string{"@", "==", "[", ">=", "~="} {
			spec, _, _ = strings.Cut(spec, sep)
		}
	}
	return spec
}

// judgeRunnerWraps denies a runner line whose command is denied.
func (x *cmdCtx) judgeRunnerWraps(args []word) {
	inner := runnerInner(args)
	if len(inner) == 0 {
		return
	}
	if f, ok := x.innerDenied(inner); ok {
		x.add(Deny, f.rule, f.reason+" (run through "+filepath.Base(args[0].val)+")")
	}
}

// innerDenied judges argv on its own, as a command written directly, and
// reports its finding when that is a deny. Nothing it finds is kept but
// the deny.
func (x *cmdCtx) innerDenied(argv []word) (finding, bool) {
	part := Part{}
	if x.part != nil {
		part = *x.part
		part.Wrappers = nil
	}
	sub := &cmdCtx{c: x.c, s: x.s, cw: x.cw, part: &part, stdin: x.stdin}
	sub.command(argv, 1)
	return sub.f, sub.set && sub.f.d == Deny
}

// addRunnerWrapHandlers knows the programs runners are most often asked
// to start for what they do: rimraf and del-cli delete as rm -rf does.
func addRunnerWrapHandlers(handlers map[string]handler) {
	rm, ok := handlers["rm"]
	if !ok {
		return
	}
	for _, n := range []string{"rimraf", "del-cli", "del"} {
		if _, taken := handlers[n]; taken {
			continue
		}
		handlers[n] = func(x *cmdCtx, args []word) {
			argv := append([]word{{val: "rm", static: true}, {val: "-rf", static: true}}, args[1:]...)
			rm(x, argv)
		}
	}
}
