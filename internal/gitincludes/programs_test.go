package gitincludes

import (
	"slices"
	"testing"
)

// Every word of a command that names a path is taken, however quoted,
// chained or passed as an option's value; plain program names are not.
func TestCommandPathsTakesEveryPathWord(t *testing.T) {
	for v, want := range map[string][]string{
		`tools/fsmon.sh`:                      {"tools/fsmon.sh"},
		`"./bin/conv" --from=utf16`:           {"./bin/conv"},
		`!sh -c 'scripts/a; ~/b/c' && ../d|e`: {"scripts/a", "~/b/c", "../d"},
		`store --file=~/.git-creds`:           {"~/.git-creds"},
		`less -R`:                             nil,
		`true`:                                nil,
		`$(./x) > /tmp/y`:                     {"./x", "/tmp/y"},
	} {
		if got := commandPaths(v); !slices.Equal(got, want) {
			t.Errorf("commandPaths(%q) = %q, want %q", v, got, want)
		}
	}
}
