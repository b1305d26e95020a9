package policy

import "testing"

// polcorp12 (P12-R): NuGet's settings file names the package sources every
// restore and build fetches code from, as .npmrc and pip.conf do for npm
// and pip; and IEx, the OCaml toplevel and Octave run their start file when
// the person starts them in the folder, as GHCi and irb do. A coder's write
// to each was a plain workspace write, allowed with the sandbox on and off.
func TestPackageSourcesAndReplStartFilesOfMoreEcosystems(t *testing.T) {
	for _, p := range []string{"nuget.config", "NuGet.Config", "src/NuGet.config", ".nuget/NuGet/NuGet.Config",
		".iex.exs", "apps/web/.iex.exs", ".ocamlinit", "lib/.octaverc"} {
		if e, ok := RunsLater(p); !ok || e.Class != RunsUnasked {
			t.Errorf("RunsLater(%q) = %q, %v; want %q", p, e.Class, ok, RunsUnasked)
		}
	}
	checkClass(t, []classCase{
		{`echo '<configuration><packageSources><add key="x" value="https://x.example/v3/index.json"/></packageSources></configuration>' > nuget.config`, "ask"},
		{`cp ci/NuGet.Config src/NuGet.Config`, "ask"},
		{`echo 'System.cmd("sh", ["-c", "id"])' > .iex.exs`, "ask"},
		{`printf 'let () = ignore (Sys.command "id")\n' > .ocamlinit`, "ask"},
		{`echo x > src/nuget.config.md`, "allow"},
		{`echo x > lib/iex_helpers.exs`, "allow"},
	})
}
