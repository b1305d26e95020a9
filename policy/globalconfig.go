package policy

import (
	"path/filepath"
	"strings"
)

// Package managers' global configuration (issue 32, polcorp8 persist): a
// setting written to the person's own or the system's configuration of a
// package manager (npm config set, npm set, pnpm config set, pip config
// set, yarn config set --home, composer config -g, bundle config --global,
// conda config --add, gem sources --add, poetry config, dotnet nuget add
// source) is read by every later install in every project: a registry, an
// index URL or a prefix there runs code later, outside the run. It is
// denied as go env -w and git config --global are (the run-later class for
// the person's home). The same settings written into the project (npm
// config set --location=project, pip config --site, yarn config set,
// poetry config --local, bundle config set --local) are judged as before:
// a project file the review shows.

// isPipProg reports whether p is pip, pip3 or pip3.12.
func isPipProg(p string) bool {
	v, ok := strings.CutPrefix(p, "pip")
	return ok && strings.Trim(v, "0123456789.") == ""
}

// judgeGlobalConfig denies writes to a package manager's global settings.
func (x *cmdCtx) judgeGlobalConfig(args []word) {
	prog := filepath.Base(args[0].val)
	rest := args[1:]
	if isPython(prog) && len(rest) > 1 && rest[0].val == "-m" && isPipProg(rest[1].val) {
		prog, rest = rest[1].val, rest[2:]
	}
	subs := configWords(rest)
	if len(subs) == 0 {
		return
	}
	deny := func(what string) {
		x.add(Deny, RulePersist, what+" writes the person's global "+prog+" configuration, which every later install in every project reads")
	}
	switch {
	case prog == "npm" || prog == "pnpm":
		write := subs[0] == "set" || (subs[0] == "config" || subs[0] == "c") && len(subs) > 1 && configWriteVerb(subs[1])
		if !write {
			return
		}
		loc := longOptValue(rest, "--location")
		if loc == "project" && !hasOpt(rest, "g", "--global") {
			return
		}
		deny(prog + " config set")
	case isPipProg(prog):
		if subs[0] == "config" && len(subs) > 1 && configWriteVerb(subs[1]) && !hasOpt(rest, "", "--site") {
			deny("pip config " + subs[1])
		}
	case prog == "yarn":
		if subs[0] == "config" && len(subs) > 1 && configWriteVerb(subs[1]) && hasOpt(rest, "Hg", "--home", "--global") {
			deny("yarn config " + subs[1] + " --home")
		}
	case prog == "composer":
		if subs[0] == "config" && hasOpt(rest, "g", "--global") && !hasOpt(rest, "l", "--list") && len(subs) > 2 {
			deny("composer config --global")
		}
	case prog == "bundle":
		if subs[0] == "config" && hasOpt(rest, "", "--global") {
			deny("bundle config --global")
		}
	case prog == "conda" || prog == "mamba" || prog == "micromamba":
		if subs[0] == "config" && hasOpt(rest, "", "--add", "--set", "--append", "--prepend", "--remove", "--remove-key") && !hasOpt(rest, "", "--file", "--env") {
			deny(prog + " config")
		}
	case prog == "gem":
		if subs[0] == "sources" && hasOpt(rest, "ar", "--add", "--remove") {
			deny("gem sources")
		}
	case prog == "poetry":
		if subs[0] == "config" && len(subs) > 2 && !hasOpt(rest, "", "--local", "--list") {
			deny("poetry config")
		}
	case prog == "dotnet":
		if len(subs) > 2 && subs[0] == "nuget" && (subs[1] == "add" || subs[1] == "update" || subs[1] == "enable") && subs[2] == "source" && longOptValue(rest, "--configfile") == "" {
			deny("dotnet nuget " + subs[1] + " source")
		}
	}
}

// configWriteVerb reports whether a config subcommand changes a setting.
func configWriteVerb(v string) bool {
	switch v {
	case "set", "delete", "rm", "unset", "edit", "fix", "add":
		return true
	}
	return false
}

// configWords returns the words of args that are not options.
func configWords(args []word) []string {
	var out []string
	for _, w := range args {
		if !strings.HasPrefix(w.val, "-") {
			out = append(out, w.val)
		}
	}
	return out
}

// longOptValue returns the value of a long option given as --opt=V or --opt V.
func longOptValue(args []word, opt string) string {
	for i, w := range args {
		if v, ok := strings.CutPrefix(w.val, opt+"="); ok {
			return v
		}
		if w.val == opt && i+1 < len(args) {
			return args[i+1].val
		}
	}
	return ""
}
