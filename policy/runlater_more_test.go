package policy

import "testing"

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
	for _, p := range []string{".pylintrc", "svc/pylintrc", "mypy.ini", "pytest.ini", "setup.cfg", ".Rprofile",
		".eslintrc.js", "web/.eslintrc.cjs", ".babelrc", ".babelrc.js", "babel.config.json", "bunfig.toml",
		".yarn/releases/yarn-4.1.cjs", ".yarn/plugins/@yarnpkg/plugin-x.cjs", ".pnp.cjs", ".pnp.loader.mjs",
		"deno.json", "deno.jsonc", "composer.json", ".rspec", ".rubocop.yml", ".pryrc", ".irbrc",
		"Directory.Build.props", "src/Directory.Build.targets", "src/App/App.csproj", "Lib.fsproj", "Old.vbproj",
		"Package.swift", "build.sbt", "project/plugins.sbt", "mix.exs", "Setup.hs", "build.zig", "Tiltfile",
		"Earthfile", "devbox.json", ".gitpod.yml"} {
		e, ok := RunsLater(p)
		if !ok || e.Class != RunsOnBuild {
			t.Errorf("%s: flagged %v, class %q; want the build class", p, ok, e.Class)
		}
	}
}
