package policy

import "strings"

// Local dev tools that only read the project and write inside it: code
// generators (mockgen, sqlc, templ, buf), formatters (gofumpt, shfmt,
// dos2unix), linters and scanners (bandit, ansible-lint, xmllint),
// documentation builders (mkdocs, sphinx-build), class-file readers (javap)
// and cargo's common external subcommands. A tool with subcommands is
// judged by verb class (buildverbs.go), so its publishing or remote verbs
// (buf push, mkdocs gh-deploy, sqlc push) are not in the table and still
// ask; a tool without subcommands is a projectTool, whose path operands and
// -opt=PATH values must stay in the workspace. OpenTofu is judged as
// terraform is: fmt and validate are offline, plan runs inside the sandbox.

// devProjectTools are single-command formatters, generators and linters.
var devProjectTools = []string{"gofumpt", "gci", "golines", "shfmt", "mockgen", "stringer", "bandit", "ansible-lint",
	"sphinx-build", "xmllint", "dos2unix", "unix2dos", "javap", "autoreconf", "protolint", "yapf", "autopep8",
	"pyupgrade", "djlint", "taplo", "sqlfluff", "codespell", "typos", "vale", "gosec",
	// GDScript's formatter and linter (gdtoolkit), checkmake and
	// editorconfig-checker read the project and its data-only config.
	"gdformat", "gdlint", "checkmake", "editorconfig-checker"}

func devToolVerbs(p, r, m, run verbClass) map[string]map[string]verbClass {
	return map[string]map[string]verbClass{
		// buf generate runs protoc plugins and may fetch remote plugins:
		// inside the sandbox; buf push publishes to a registry (not here).
		"buf":    {"lint": p, "format": p, "build": p, "breaking": p, "generate": run, "--version": r, "dep update": m},
		"sqlc":   {"generate": p, "compile": p, "vet": run, "version": r},
		"templ":  {"generate": p, "fmt": p, "version": r},
		"mkdocs": {"build": p, "serve": run, "--version": r},
		// go work sync updates the workspace's go.mod files from go.work,
		// fetching modules as go mod download does.
		"go":        {"work sync": m},
		"tofu":      {"fmt": p, "version": r, "-version": r, "providers": r, "validate": run, "init": m, "plan": run, "show": run, "graph": run},
		"packer":    {"validate": run, "fmt": p, "version": r},
		"terraform": {"graph": run},
	}
}

// addDevToolHandlers registers the single-command tools as projectTool.
func addDevToolHandlers(handlers map[string]handler) {
	for _, n := range devProjectTools {
		if _, known := handlers[n]; !known {
			handlers[n] = projectTool
		}
	}
	handlers["rustc"] = rustcCmd
}

// rustcQueries are rustc's options that only print what it is: its
// version and what --print names. Compiling is left to asking (rustc -C
// linker=PROG runs a program).
var rustcQueries = wordSet{words: []string{"--version", "-V", "-vV", "-v", "--verbose"}}

func rustcCmd(x *cmdCtx, args []word) {
	for i := 1; i < len(args); i++ {
		w := args[i]
		switch {
		case !w.static:
		case rustcQueries.has(w.val):
			continue
		case w.val == "--print" && i+1 < len(args) && args[i+1].static && !looksLikePath(args[i+1].val):
			i++
			continue
		case strings.HasPrefix(w.val, "--print=") && !strings.Contains(w.val, "/"):
			continue
		}
		x.add(Ask, RuleUnknownCommand, "rustc compiles or runs what the policy does not judge")
		return
	}
	x.add(Allow, RuleReadOnly, "prints rustc's version or configuration")
}
