package agentutil

import (
	"strings"
	"testing"
)

func TestWhereAmI(t *testing.T) {
	full := WhereAmI(Surroundings{Workspace: "/tmp/ws", Sandboxed: true, Toolchains: []string{"go", "pyenv"},
		Caches: []string{"GOCACHE", "PIP_CACHE_DIR"}, NetworkAsks: true, Unattended: true, Supervised: true})
	for _, want := range []string{"Sentinel", "/tmp/ws", "disposable copy", "reviewed before they land",
		"go, pyenv", "read-only", "GOCACHE, PIP_CACHE_DIR", "approval request", "supervisor model", "denied when it cannot answer"} {
		if !strings.Contains(full, want) {
			t.Errorf("WhereAmI lacks %q:\n%s", want, full)
		}
	}
	if len(full) > 1200 {
		t.Errorf("WhereAmI is %d bytes; keep it short", len(full))
	}

	bare := WhereAmI(Surroundings{Workspace: "/tmp/ws"})
	for _, not := range []string{"sandbox", "proxy", "Nobody", "supervisor"} {
		if strings.Contains(bare, not) {
			t.Errorf("unsandboxed, attended WhereAmI mentions %q:\n%s", not, bare)
		}
	}
	if !strings.Contains(bare, "disposable copy") {
		t.Errorf("WhereAmI must always say the workspace is a copy:\n%s", bare)
	}

	alone := WhereAmI(Surroundings{Unattended: true})
	if !strings.Contains(alone, "are denied") || strings.Contains(alone, "supervisor") {
		t.Errorf("unattended, unsupervised WhereAmI must say asks are denied:\n%s", alone)
	}
}
