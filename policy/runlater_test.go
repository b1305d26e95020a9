package policy

import (
	"strings"
	"testing"
)

// Every file the issue found unflagged, and today's, in mixed case and
// disguised with invisible or compatibility characters, is found with the
// right class; ordinary files are not.
func TestRunsLaterFindsEveryKindInAnyCase(t *testing.T) {
	cases := []struct {
		path string
		want RunLaterClass // "" = not flagged
	}{
		// the person's machine runs it unasked: person-only
		{".VSCODE/tasks.json", RunsUnasked},
		{"web/.VSCode/settings.json", RunsUnasked},
		{".ENVRC", RunsUnasked},
		{"sub/.envrc", RunsUnasked},
		{".Idea/workspace.xml", RunsUnasked},
		{".ZED/settings.json", RunsUnasked},
		{".Cursor/mcp.json", RunsUnasked},
		{".NVIM.lua", RunsUnasked},
		{".EXRC", RunsUnasked},
		{".Claude/settings.json", RunsUnasked},
		{".codex/config.toml", RunsUnasked},
		{".GEMINI/settings.json", RunsUnasked},
		{".MCP.json", RunsUnasked},
		{".GitHub/Workflows/ci.yml", RunsUnasked},
		{".github/actions/setup/action.yml", RunsUnasked},
		{".GITLAB-CI.yml", RunsUnasked},
		{".pre-commit-config.YAML", RunsUnasked},
		{"Lefthook.yml", RunsUnasked},
		{"lefthook-local.yml", RunsUnasked},
		{".GitAttributes", RunsUnasked},
		{".gitmodules", RunsUnasked},
		{".husky/pre-commit", RunsUnasked},
		{"sub/.GIT/hooks/post-checkout", RunsUnasked},
		{".devcontainer/devcontainer.json", RunsUnasked},
		{".vs\u200bcode/tasks.json", RunsUnasked},                 // zero-width space
		{".\u202evscode/tasks.json", RunsUnasked},                 // bidi override
		{".vscode./tasks.json", RunsUnasked},                      // Windows drops trailing dots
		{"\uff0eenvrc", RunsUnasked},                              // fullwidth full stop
		{"Ja\u212Aefile/../.envrc", RunsUnasked},                  // ".." resolved
		{".claude/CLAUDE.md", RunsUnasked},                        // auto beats instructions
		{".cargo/config.toml", RunsUnasked},                       // issue 32: rustc-wrapper runs on every cargo command
		{".Cargo/Config.toml", RunsUnasked},                       // mixed case
		{".cargo/x.toml", RunsOnBuild},                            // the rest of .cargo/: build
		{"MAKEFILE", RunsOnBuild},                                 // upper case
		{"Ma\u212Aefile", RunsOnBuild},                            // Kelvin sign for k
		{"Make\ufb01le", RunsOnBuild},                             // "fi" ligature
		{"src/GNUmakefile", RunsOnBuild},                          // at depth
		{"Package.JSON", RunsOnBuild},                             // npm scripts
		{"BUILD.RS", RunsOnBuild},                                 // cargo build script
		{"tests/ConfTest.py", RunsOnBuild},                        // pytest
		{"SETUP.py", RunsOnBuild},                                 // pip
		{"SiteCustomize.py", RunsOnBuild},                         // python start-up
		{".venv/lib/python3.12/site-packages/x.PTH", RunsUnasked}, // issue 32: every python start
		{"docs/x.pth", RunsOnBuild},                               // not in a site directory
		{"JUSTFILE", RunsOnBuild},
		{"taskfile.YML", RunsOnBuild},
		{"DOCKERFILE", RunsOnBuild},
		{"vite.config.TS", RunsOnBuild},
		{"CLAUDE.md", AgentInstructions},
		{"Claude.md", AgentInstructions},
		{"pkg/agents.MD", AgentInstructions},
		{"GEMINI.md", AgentInstructions},
		{".CursorRules", AgentInstructions},
		{".github/copilot-instructions.md", AgentInstructions},
		// ordinary files
		{"src/main.go", ""},
		{"README.md", ""},
		{"build/out.o", ""},
		{"vscode/tasks.json", ""},
		{"docs/github/workflows/ci.yml", ""},
		{"envrc", ""},
		{"makefile_test.go", ""},
	}
	for _, c := range cases {
		e, ok := RunsLater(c.path)
		got := RunLaterClass("")
		if ok {
			got = e.Class
		}
		if got != c.want {
			t.Errorf("RunsLater(%q) = %q (%s), want %q", c.path, got, e.Pattern, c.want)
		}
		if ok && e.Reason == "" {
			t.Errorf("RunsLater(%q): no reason", c.path)
		}
	}
}

// A write the person's own machine would run unasked is person-only: the
// policy asks and marks it never delegable, so no supervisor model may
// approve it, in any spelling and by any route. Build files and agent
// instructions are flagged at review, not blocked.
func TestRunLaterWritesArePersonOnly(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	cases := []struct {
		q          Query
		want       Decision
		personOnly bool
	}{
		{Query{Kind: KindWrite, Path: ".VSCode/tasks.json"}, Ask, true},
		{Query{Kind: KindEdit, Path: ".github/workflows/x.yml"}, Ask, true},
		{Query{Kind: KindWrite, Path: ".ENVRC"}, Ask, true},
		{Query{Kind: KindWrite, Path: "web/.vscode/settings.json"}, Ask, true},
		{Query{Kind: KindWrite, Path: ".Zed/tasks.json"}, Ask, true},
		{Query{Kind: KindWrite, Path: ".nvim.lua"}, Ask, true},
		{Query{Kind: KindWrite, Path: ".github/actions/a/action.yml"}, Ask, true},
		{Query{Kind: KindWrite, Path: "lefthook.yml"}, Ask, true},
		{Query{Kind: KindShell, Command: "echo x > .VSCODE/tasks.json"}, Ask, true},
		{Query{Kind: KindShell, Command: "mkdir -p .Claude && echo '{}' > .Claude/settings.json"}, Ask, true},
		{Query{Kind: KindShell, Command: "mv x .github"}, Ask, true}, // makes .github/workflows
		{Query{Kind: KindWrite, Path: "CLAUDE.md"}, Allow, false},
		{Query{Kind: KindWrite, Path: "AGENTS.md"}, Allow, false},
		{Query{Kind: KindWrite, Path: "Makefile"}, Allow, false},
		{Query{Kind: KindShell, Command: "echo 'all:' > Makefile"}, Allow, false},
		{Query{Kind: KindWrite, Path: "src/main.go"}, Allow, false},
	}
	for _, c := range cases {
		c.q.Context = ctx
		v := e.Check(c.q)
		if v.Decision != c.want || v.NeverDelegable != c.personOnly {
			t.Errorf("%s %s%s: %s (never delegable %v) by %s: %s; want %s, never delegable %v",
				c.q.Kind, c.q.Path, c.q.Command, v.Decision, v.NeverDelegable, v.Rule, v.Reason, c.want, c.personOnly)
		}
	}
}

// A bad list is an error naming the entry, never a silently shorter list.
func TestRunLaterListErrors(t *testing.T) {
	for src, want := range map[string]string{
		`auto = [{ pattern = "**/x" }]`:                        `needs both a pattern and a reason`,
		`auto = [{ pattern = "/x", reason = "r" }]`:            `relative to the project root`,
		`auto = [{ pattern = "a/[", reason = "r" }]`:           `bad element`,
		`sometimes = [{ pattern = "x", reason = "r" }]`:        `unknown class "sometimes"`,
		`build = [{ pattern = "x", reason = "r", why = "y" }]`: `unknown key`,
		`build = [{ pattern = "a/../x", reason = "r" }]`:       `bad element`,
	} {
		if _, err := loadRunLater(src); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", src, err, want)
		}
	}
	if n := len(RunLaterEntries()); n < 50 {
		t.Errorf("runlater.toml has only %d entries", n)
	}
}
