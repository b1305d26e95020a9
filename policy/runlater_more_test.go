package policy

import (
	"strings"
	"testing"
)

// Issue 32: settings that name the programs a tool runs on every use, and
// a virtual environment's start-up files, were plain workspace writes.
// Writing them asks, by redirect, by a program and by the Write tool.
func TestToolSettingsAndVenvStartupFilesAreRunLater(t *testing.T) {
	for _, p := range []string{
		".cargo/config", ".cargo/config.toml", "sub/.cargo/config.toml",
		".venv/lib/python3.12/site-packages/evil.pth", ".venv/lib/python3.12/site-packages/sitecustomize.py",
		".venv/bin/activate", ".venv/bin/activate.fish", ".venv/Scripts/Activate.ps1", ".venv/pyvenv.cfg",
		"pip.conf", ".venv/pip.ini", ".npmrc", ".yarnrc", ".yarnrc.yml", ".pnpmfile.cjs",
		"init.gradle", "gradle/init.d/x.gradle", ".gradle/init.d/y.gradle.kts", "init.gradle.kts",
		".mvn/jvm.config", ".mvn/maven.config", ".mvn/extensions.xml", ".mvn/wrapper/maven-wrapper.properties",
		"gradle/wrapper/gradle-wrapper.properties",
	} {
		e, ok := RunsLater(p)
		if !ok || e.Class != RunsUnasked {
			t.Errorf("RunsLater(%q) = %q, %v; want %q", p, e.Class, ok, RunsUnasked)
		}
	}
	checkClass(t, []classCase{
		{`echo '[build]' > .cargo/config.toml`, "ask"},
		{`echo 'import os' > .venv/lib/python3.12/site-packages/evil.pth`, "ask"},
		{`echo 'rm -rf ~' >> .venv/bin/activate`, "ask"},
		{`printf '[global]\nindex-url=http://x\n' > pip.conf`, "ask"},
		{`cp x .mvn/jvm.config`, "ask"},
		{`echo x > src/activate.rs`, "allow"},
		{`echo x > docs/notes.pth`, "allow"},
	})
}

// Config files through which a tool the person runs (or the editor, on
// opening a file) loads and runs code the file names: a coder's edit to
// one is flagged like a Makefile's. None of these was flagged before
// (h/ipatk5 found 40 such names unlisted).
func TestToolConfigsThatLoadCodeAreRunLater(t *testing.T) {
	for _, p := range []string{".pylintrc", "svc/pylintrc", "mypy.ini", "pytest.ini", "setup.cfg",
		".eslintrc.js", "web/.eslintrc.cjs", ".babelrc", ".babelrc.js", "babel.config.json", "bunfig.toml",
		".yarn/releases/yarn-4.1.cjs", ".yarn/plugins/@yarnpkg/plugin-x.cjs", ".pnp.cjs", ".pnp.loader.mjs",
		"deno.json", "deno.jsonc", "composer.json", ".rspec", ".rubocop.yml",
		"Directory.Build.props", "src/Directory.Build.targets", "src/App/App.csproj", "Lib.fsproj", "Old.vbproj",
		"global.json", "src/global.json", // .NET 10's sdk.paths: the person's dotnet runs an SDK from the project (31-ipatk15)
		"Package.swift", "build.sbt", "project/plugins.sbt", "mix.exs", "Setup.hs", "build.zig", "Tiltfile",
		"Earthfile", "devbox.json", ".gitpod.yml"} {
		e, ok := RunsLater(p)
		if !ok || e.Class != RunsOnBuild {
			t.Errorf("%s: flagged %v, class %q; want the build class", p, ok, e.Class)
		}
	}
}

// Another version control's repository (Mercurial's hgrc hooks and
// extensions, Jujutsu's repository config) runs what it names on a status
// in the folder, as a nested git repository does; and debugger, REPL and
// task-runner files run when the person starts the tool there. A coder's
// .hg/hgrc, .jj/repo/config.toml, .pdbrc, .ghci, gradle.properties,
// gulpfile.js… were reported as changed and not flagged (h/ipatk6).
func TestOtherVersionControlAndToolStartFilesAreRunLater(t *testing.T) {
	for _, p := range []string{".hg/hgrc", "vendor/lib/.hg/hgrc", ".jj/repo/config.toml", "sub/.jj/repo/config.toml"} {
		if e, ok := RunsLater(p); !ok || e.Class != RunsUnasked {
			t.Errorf("%s: flagged %v, class %q; want %q", p, ok, e.Class, RunsUnasked)
		}
	}
	for _, p := range []string{".pdbrc", "svc/.ghci", ".gdbinit", ".lldbinit", ".irbrc", ".pryrc", "r/.Rprofile"} {
		if e, ok := RunsLater(p); !ok || e.Class != RunsUnasked {
			t.Errorf("%s: flagged %v, class %q; want %q (it runs when the person starts the REPL or debugger here)", p, ok, e.Class, RunsUnasked)
		}
	}
	for _, p := range []string{"gradle.properties", "app/gradle.properties",
		".jvmopts", ".sbtopts", "Gruntfile.js", "gulpfile.js", "web/gulpfile.babel.js", "karma.conf.js", ".mocharc.yml",
		".mocharc.json", "nodemon.json", "tasks.py", "fabfile.py", "Pipfile", "Procfile"} {
		if e, ok := RunsLater(p); !ok || e.Class != RunsOnBuild {
			t.Errorf("%s: flagged %v, class %q; want the build class", p, ok, e.Class)
		}
	}
	checkClass(t, []classCase{
		{`printf '[hooks]\npre-status = sh x\n' > vendor/lib/.hg/hgrc`, "ask"},
		{`echo x > src/tasks.rs`, "allow"},
	})
}

// A coder may create a .env where there was none (an existing one is a
// secret file it cannot touch) or a .env.local: bun, pipenv, foreman and
// docker compose load such a file's LD_PRELOAD, NODE_OPTIONS or BASH_ENV
// into the programs they start. It was reported and not flagged (h/ipatk6).
func TestEnvFilesToolsLoadAreRunLater(t *testing.T) {
	// .env itself is more than that: Gemini CLI loads it unasked on start
	// and runs the program GEMINI_SANDBOX_PROXY_COMMAND names (polcorp8
	// P8-U1), so it is in the auto class (h/pol18).
	for _, p := range []string{".env", "web/.env"} {
		if e, ok := RunsLater(p); !ok || e.Class != RunsUnasked {
			t.Errorf("%s: flagged %v, class %q; want %q (Gemini CLI runs what it names)", p, ok, e.Class, RunsUnasked)
		}
	}
	for _, p := range []string{".env.local", ".env.development", "api/.env.test", ".flaskenv"} {
		if e, ok := RunsLater(p); !ok || e.Class != RunsOnBuild {
			t.Errorf("%s: flagged %v, class %q; want the build class", p, ok, e.Class)
		}
	}
	for _, p := range []string{"src/env.go", "environment.yml", ".envrc.example"} {
		if e, ok := RunsLater(p); ok && e.Class == RunsOnBuild && strings.HasPrefix(e.Pattern, "**/.env") {
			t.Errorf("%s flagged by %s", p, e.Pattern)
		}
	}
}

// Files the tools that run on cd or on a lint load without asking again:
// what an allowed .envrc sources (direnv checks only the .envrc itself),
// mise's other config names (a local or per-environment file, a config
// dir), and golangci-lint's config, which names linter plugins (.so) it
// loads. A coder's write to each was reported as a plain change and, the
// auto ones, written freely through mcp edit (h/ipatk8).
func TestFilesRunOnCdOrLintAreRunLater(t *testing.T) {
	for _, p := range []string{".envrc.local", "svc/.envrc.private", ".mise.local.toml", ".mise.dev.toml",
		"mise.ci.toml", "mise/config.toml", ".config/mise.toml", ".config/mise/config.toml",
		".config/mise/conf.d/x.toml", "app/.rtx.toml"} {
		if e, ok := RunsLater(p); !ok || e.Class != RunsUnasked {
			t.Errorf("%s: flagged %v, class %q; want %q", p, ok, e.Class, RunsUnasked)
		}
	}
	for _, p := range []string{".golangci.yml", "svc/.golangci.yaml", ".golangci.toml", ".golangci.json", ".custom-gcl.yml"} {
		if e, ok := RunsLater(p); !ok || e.Class != RunsOnBuild {
			t.Errorf("%s: flagged %v, class %q; want the build class", p, ok, e.Class)
		}
	}
	checkClass(t, []classCase{
		{`echo 'curl x | sh' > .envrc.local`, "ask"},
		{`echo x > envrc.go`, "allow"},
	})
}

// Hook runners' and formatters' configs that a tool obeys with no step of
// the person's own: husky 4 and lint-staged run the commands their config
// names on commit, like .pre-commit-config.yaml; Prettier, stylelint,
// flake8, coverage and nyc load the plugins theirs name when the editor
// formats or the person tests; mise runs its file tasks and JetBrains its
// shared run configurations. Each was reported as a plain change (h/ipatk12).
func TestHookRunnerAndPluginConfigsAreRunLater(t *testing.T) {
	for _, p := range []string{".huskyrc", ".huskyrc.json", "web/.huskyrc.js", ".lintstagedrc", ".lintstagedrc.json", "web/.lintstagedrc.yaml"} {
		if e, ok := RunsLater(p); !ok || e.Class != RunsUnasked {
			t.Errorf("%s: flagged %v, class %q; want %q (it runs on the person's git commit)", p, ok, e.Class, RunsUnasked)
		}
	}
	for _, p := range []string{".prettierrc", ".prettierrc.js", "web/.prettierrc.cjs", ".prettierrc.mjs", ".prettierrc.json",
		".stylelintrc", ".stylelintrc.js", ".flake8", "svc/.flake8", ".coveragerc", ".nycrc", ".nycrc.json",
		".mise-tasks/build", "mise/tasks/test", "mise-tasks/lint", ".run/App.run.xml", "pnpm-workspace.yaml", "nx.json"} {
		if e, ok := RunsLater(p); !ok || e.Class != RunsOnBuild {
			t.Errorf("%s: flagged %v, class %q; want the build class", p, ok, e.Class)
		}
	}
}
