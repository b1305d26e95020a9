package policy

import "strings"

// Tool state in the person's home: rustup's toolchains and components, Hex
// and Rebar archives (mix local.hex), Bundler's settings. What these write
// lives outside the workspace and runs later on the host (a component is a
// program, an archive is code every mix run loads), so with the sandbox
// off they ask. Inside the sandbox the person's toolchain roots are shown
// read-only and the home is not writable (sandbox/toolchains.go): the
// write cannot land, the command can only fail, and a card for it buys
// nothing; they are allowed there. Reading the state (rustup show,
// component list) is allowed in both modes. Bundler's settings of where and
// how gems install (path, without, jobs…) written with --local go to the
// project's own .bundle/config, a workspace file that runs nothing.

// rustupRead are rustup's verbs that print.
var rustupRead = wordSet{words: []string{"show", "--version", "-V", "--help", "-h", "component list", "toolchain list",
	"target list", "which", "show active-toolchain", "show home", "check"}}

// rustupInstall are rustup's verbs that change the toolchains.
var rustupInstall = wordSet{words: []string{"component add", "target add", "toolchain install", "install", "update",
	"default", "override set", "toolchain add"}}

func rustupCmd(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		var ops []string
		for _, a := range args[1:] {
			if !a.static {
				prev(x, args)
				return
			}
			ops = append(ops, a.val)
		}
		verb := ""
		if len(ops) > 0 {
			verb = ops[0]
		}
		two := verb
		if len(ops) > 1 {
			two = verb + " " + ops[1]
		}
		switch {
		case rustupRead.has(two) || rustupRead.has(verb) && (len(ops) == 1 || verb == "which"):
			x.add(Allow, RuleReadOnly, "rustup "+verb+" prints the toolchains")
		case rustupInstall.has(two) || rustupInstall.has(verb):
			for _, o := range ops {
				if strings.Contains(o, "://") || strings.HasPrefix(o, "/") || strings.HasPrefix(o, "~") || strings.Contains(o, "..") {
					prev(x, args) // a toolchain from a path or URL
					return
				}
			}
			x.sandboxedCode("rustup "+two+" changes the person's toolchain, which the sandbox keeps read-only",
				RulePkgInstall, "rustup "+two+" changes the person's Rust toolchain, which runs later outside the sandbox")
		default:
			prev(x, args)
		}
	}
}

// bundleSettings are Bundler settings of where and how gems install.
var bundleSettings = wordSet{words: []string{"path", "without", "with", "jobs", "retry", "deployment", "frozen", "clean",
	"cache_all", "force_ruby_platform", "only", "bin", "silence_root_warning", "auto_install"}}

// bundleConfig judges `bundle config [set] [--local|--global] KEY VALUE`.
func bundleConfig(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if len(args) < 3 || args[1].val != "config" {
			prev(x, args)
			return
		}
		rest := args[2:]
		if rest[0].val == "set" {
			rest = rest[1:]
		}
		local := false
		var kv []word
		for _, a := range rest {
			switch {
			case !a.static:
				prev(x, args)
				return
			case a.val == "--local":
				local = true
			case a.val == "--global":
			case strings.HasPrefix(a.val, "-"):
				prev(x, args)
				return
			default:
				kv = append(kv, a)
			}
		}
		if len(kv) < 2 || !bundleSettings.has(strings.ToLower(kv[0].val)) {
			prev(x, args)
			return
		}
		was := x.c.keepText
		x.c.keepText = true // a place later installs write, not a file of text this line writes
		for _, v := range kv[1:] {
			if looksLikePath(v.val) || kv[0].val == "path" || kv[0].val == "bin" {
				x.write(v) // where gems or binstubs go: inside the workspace
			}
		}
		x.c.keepText = was
		if local {
			x.add(Allow, RuleFileWrite, "bundle config --local "+kv[0].val+" writes the project's .bundle/config")
			x.inWorkspace()
			return
		}
		x.sandboxedCode("bundle config "+kv[0].val+" writes the person's Bundler settings, which the sandbox keeps out of reach",
			RulePkgInstall, "bundle config writes the person's Bundler settings, used by every later bundle run")
	}
}

// mixLocal judges `mix local.hex` / `mix local.rebar` [--force|--if-missing]:
// archives installed into the person's ~/.mix, loaded by every later mix run.
func mixLocal(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if len(args) < 2 || args[1].val != "local.hex" && args[1].val != "local.rebar" {
			prev(x, args)
			return
		}
		for _, a := range args[2:] {
			if a.val != "--force" && a.val != "--if-missing" {
				prev(x, args) // a path or URL to install from
				return
			}
		}
		x.sandboxedCode("mix "+args[1].val+" installs into the person's ~/.mix, which the sandbox keeps out of reach",
			RulePkgInstall, "mix "+args[1].val+" installs an archive every later mix run loads")
	}
}
