package agents

import (
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/coder"
	"github.com/sentinelhq/sentinel/runner/dialects"
)

// Every entry is whole: a unique name, an install line wherever doctor
// checks it, a dialect that runner/dialects has (and every dialect is an
// agent's), and recognition of its own program by name and package.
func TestEntriesAreWhole(t *testing.T) {
	seen := map[string]bool{}
	var withDialect []string
	for _, a := range All() {
		if a.Name == "" || seen[a.Name] {
			t.Fatalf("entry %+v: no name or a name twice", a)
		}
		seen[a.Name] = true
		if a.Dialect != "" {
			withDialect = append(withDialect, a.Dialect)
		}
		if got := Identify("/usr/local/bin/"+a.Name, a.Name, []string{a.Name}); got != a {
			t.Errorf("%s: its program is not recognised by name", a.Name)
		}
		for _, pkg := range a.Packages {
			script := "/usr/lib/node_modules/" + pkg + "/dist/index.js"
			if got, at := Of([]string{"node", script, "--x"}); got != a || at != 2 {
				t.Errorf("%s: a script of package %s is not recognised", a.Name, pkg)
			}
		}
		if (a.Run != nil || a.InPlace != nil) && a.Install == "" {
			t.Errorf("%s is driven but doctor cannot say how to install it", a.Name)
		}
		if a.Run != nil && len(a.Coders) == 0 {
			t.Errorf("%s has a run adapter but no --coder name", a.Name)
		}
		// An agent run through --coder acp is checked before the run
		// from its own entry (the run knows no agent by name).
		if strings.Contains(a.NotCoder, "--coder acp") && (a.HostedModel == nil || a.ACP == nil) {
			t.Errorf("%s runs over --coder acp but its entry says nothing of how its model is checked (HostedModel) or what it needs there (ACP)", a.Name)
		}
	}
	names := dialects.Names()
	slices.Sort(names)
	slices.Sort(withDialect)
	if !slices.Equal(names, withDialect) {
		t.Errorf("dialects %v, agents' dialects %v: each dialect belongs to one agent", names, withDialect)
	}
}

// The adapters the registry builds are their agent's and do what the run
// asks of them instead of a type switch: prepare their per-run state, and
// say where a failure is read from.
func TestAdaptersKeepTheContract(t *testing.T) {
	for _, a := range All() {
		if a.InPlace == nil {
			continue
		}
		ad, err := a.InPlace(coder.InPlaceArgs{Launch: []string{"/usr/bin/" + a.Name, "--version"}, At: 1})
		if err != nil {
			t.Fatalf("%s in place: %v", a.Name, err)
		}
		if ad.Name() != a.Name {
			t.Errorf("%s's in-place adapter is named %q", a.Name, ad.Name())
		}
		if _, ok := ad.(coder.Preparer); !ok {
			t.Errorf("%s's in-place adapter makes no per-run state", a.Name)
		}
		if coder.FailureSourceOf(ad) == coder.NoFailure {
			t.Errorf("%s's in-place adapter cannot say it failed", a.Name)
		}
		if coder.TransportOf(ad) != coder.PTY {
			t.Errorf("%s in place is not on the pty", a.Name)
		}
	}
	for _, name := range CoderNames() {
		ad, err := Coder(name).Run(coder.RunArgs{Name: name})
		if err != nil {
			t.Fatalf("--coder %s: %v", name, err)
		}
		if _, ok := ad.(coder.Preparer); !ok {
			t.Errorf("--coder %s makes no per-run state", name)
		}
	}
}

// Readers read the registry: the shims, doctor's list, the sandbox's
// agents and the trailer follow an entry's fields.
func TestReadersFollowTheEntries(t *testing.T) {
	// The shims are the entries that say Shim, in the registry's order
	// (an agent added to All gets one without this test changing).
	var shimmed []string
	for _, a := range All() {
		if a.Shim {
			shimmed = append(shimmed, a.Name)
		}
	}
	if got := Names(Shimmed); !slices.Equal(got, shimmed) || !slices.Contains(got, "claude") || slices.Contains(got, "crush") {
		t.Errorf("shims %v, entries with a shim %v", got, shimmed)
	}
	if got := Names(Hooked); !slices.Contains(got, "aider") || slices.Contains(got, "goose") {
		t.Errorf("in-place adapters %v", got)
	}
	if CoAuthor("claude") != "Claude <noreply@anthropic.com>" || CoAuthor("my<bot>") != "mybot (via Sentinel) <sentinel@localhost>" {
		t.Errorf("trailers %q, %q", CoAuthor("claude"), CoAuthor("my<bot>"))
	}
	if Coder("claude-headless") != Lookup("claude") || Coder("gemini") != Lookup("gemini") || Coder("vim") != nil {
		t.Error("--coder names do not find their agent")
	}
}
