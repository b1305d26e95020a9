package runner

import (
	"encoding/json"
	"testing"
)

// TestTypedPayloadsKeepTheirBytes pins that the typed payloads encode as the
// maps they replaced did, byte for byte: journals written before and after
// read the same, and goldens do not move.
func TestTypedPayloadsKeepTheirBytes(t *testing.T) {
	t.Parallel()
	checks := []Check{{Command: "make test", Source: "config"}}
	for _, c := range []struct {
		typed any
		was   map[string]any
	}{
		{RunStart{Task: "t", Coder: "demo", Apply: ApplyBranch, Project: "/p", Checks: checks},
			map[string]any{"task": "t", "coder": "demo", "apply": ApplyBranch, "project": "/p", "checks": checks}},
		{RunStart{}, map[string]any{"task": "", "coder": "", "apply": ApplyMode(""), "project": "", "checks": []Check(nil)}},
		{RunEnd{Status: StatusFailed}, map[string]any{"status": StatusFailed}},
		{CoderExit{ExitCode: 2}, map[string]any{"exit_code": 2}},
		{PatchLeftOut{Paths: []string{".git/x"}}, map[string]any{"paths": []string{".git/x"}}},
		{Said{Text: "hi"}, map[string]any{"text": "hi"}},
		{Said{Text: "hi", From: "you"}, map[string]any{"text": "hi", "from": "you"}},
	} {
		a, _ := json.Marshal(c.typed)
		b, _ := json.Marshal(c.was)
		if string(a) != string(b) {
			t.Errorf("%T encodes as %s; it was %s", c.typed, a, b)
		}
	}
}
