package policy

import "testing"

// Editor and tool files the 16th in-place attacker round (h/ipatk16) wrote
// and found reported as plain changes: R's .Renviron and renv's activate
// script, RVM's .rvmrc, YouCompleteMe's .ycm_extra_conf.py and Theia's tasks
// run as soon as the person starts the tool or opens the folder; bazelisk's
// .bazelversion (a fork/version downloads another owner's Bazel),
// .bazeliskrc and tools/bazel, and the build files of brew bundle,
// CocoaPods, fastlane, scons, conan, premake, rebar3, dune, ant, gn, CMake
// presets, cabal, stack, pixi, hatch, uv, poetry and pdm run (or choose)
// code when the person builds.
func TestEditorAndBuildToolFilesFromRound16AreRunLater(t *testing.T) {
	for _, p := range []string{".Renviron", "r/.Renviron", "renv/activate.R", ".rvmrc", "app/.rvmrc",
		".ycm_extra_conf.py", "src/.ycm_extra_conf.py", ".theia/tasks.json", "web/.theia/settings.json"} {
		if e, ok := RunsLater(p); !ok || e.Class != RunsUnasked {
			t.Errorf("%s: flagged %v, class %q; want %q", p, ok, e.Class, RunsUnasked)
		}
	}
	for _, p := range []string{".bazelversion", "ws/.bazelversion", ".bazeliskrc", "tools/bazel", "ws/tools/bazel",
		"Brewfile", "ios/Podfile", "fastlane/Fastfile", "Guardfile", "Capfile", "Thorfile", "Dangerfile", ".simplecov",
		"cpanfile", "Build.PL", "SConstruct", "src/SConscript", "wscript", "conanfile.py", "Snakefile",
		"premake5.lua", "xmake.lua", "rebar.config", "lib/dune", "build.xml", "BUILD.gn", ".gn",
		"CMakePresets.json", "CMakeUserPresets.json", "cabal.project", "cabal.project.local", "stack.yaml",
		"pixi.toml", "hatch.toml", "uv.toml", "poetry.toml", "pdm.toml", ".pdm.toml"} {
		if e, ok := RunsLater(p); !ok || e.Class != RunsOnBuild {
			t.Errorf("%s: flagged %v, class %q; want the build class", p, ok, e.Class)
		}
	}
	for _, p := range []string{"tools/bazel.md", "docs/dune.md", "src/wscript.txt", "notes/stack.yaml.bak"} {
		if _, ok := RunsLater(p); ok {
			t.Errorf("%s: flagged; a plain file of the same stem is not run-later", p)
		}
	}
}
