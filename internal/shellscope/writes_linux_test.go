package shellscope

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/sandbox/inside"
)

// The write grant is every writable root of the sandbox's plan, its /tmp
// and /dev, less the agent's state; a state dir inside another writable
// root cannot be left out and is an error; a plan without agent state
// handles no file right.
func TestWriteRootsLeaveTheAgentStateOut(t *testing.T) {
	sp := inside.Spec{Workspace: "/w/proj", Writable: []string{"/h/.cache/go-build", "/h/.cache/sentinel/exec/r1.agent", "/h/.cache/sentinel/exec/r1.agent/sub"},
		AgentState: []string{"/h/.cache/sentinel/exec/r1.agent"}}
	got, err := WriteRoots(sp)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/w/proj", "/tmp", "/dev", "/h/.cache/go-build"}
	if !slices.Equal(got, want) {
		t.Errorf("WriteRoots = %q, want %q", got, want)
	}
	for _, nested := range []inside.Spec{
		{Workspace: "/w/proj", AgentState: []string{"/w/proj/.agent"}},
		{Workspace: "/w/proj", Writable: []string{"/h/.cache", "/h/.cache/s.agent"}, AgentState: []string{"/h/.cache/s.agent"}},
		{Workspace: "/w/proj", Writable: []string{"/tmp/h/s.agent"}, AgentState: []string{"/tmp/h/s.agent"}},
	} {
		if roots, err := WriteRoots(nested); err == nil {
			t.Errorf("WriteRoots(%v) = %q, want an error: the state lies in a writable root", nested, roots)
		}
	}
	if roots, err := WriteRoots(inside.Spec{Workspace: "/w/proj", Writable: []string{"/h/s"}}); err != nil || roots != nil {
		t.Errorf("no agent state: WriteRoots = %q, %v; want none (no file right handled)", roots, err)
	}
}

// The wrapper reads the spec stage 1 was started with (its argv, as the
// sandbox package writes it); anything else is an empty plan.
func TestThePlanIsStageOnesSpec(t *testing.T) {
	js, err := inside.EncodeSpec(inside.Spec{Workspace: "/w", Writable: []string{"/s"}, AgentState: []string{"/s"}})
	if err != nil {
		t.Fatal(err)
	}
	argv := []string{"/usr/libexec/sentinel-helper", inside.Arg, inside.Stage1, string(js), "--", "claude", "--print"}
	sp, err := readPlan([]byte(strings.Join(argv, "\x00") + "\x00"))
	if err != nil || sp.Workspace != "/w" || !slices.Equal(sp.AgentState, []string{"/s"}) {
		t.Errorf("readPlan = %+v, %v", sp, err)
	}
	if sp, err := readPlan([]byte("/sbin/init\x00splash\x00")); err != nil || sp.Workspace != "" || len(sp.AgentState) != 0 {
		t.Errorf("not stage 1: readPlan = %+v, %v; want an empty plan", sp, err)
	}
	if _, err := readPlan([]byte(strings.Join([]string{inside.Arg, inside.Stage1, "{not json", "--"}, "\x00"))); err == nil {
		t.Error("a spec that does not read is no error")
	}
}

// The shell the wrapper runs (and everything it starts) cannot write the
// agent's state: append to a transcript from bash or python, truncate it,
// hard-link, rename or mv a planted file into it, swap a folder of it for
// a symlink, hard-link a transcript out to write it through the
// workspace. Each is refused and the state is as before; the workspace,
// /tmp and /dev/null stay writable.
func TestTheWrapperKeepsCommandsOutOfTheAgentState(t *testing.T) {
	self, bash := wrapperAndBash(t)
	ws := t.TempDir()
	// The state must lie outside /tmp: the grant names /tmp whole (the
	// sandbox's private one), as a writable root.
	state, err := os.MkdirTemp("/var/tmp", "shellscope-state-")
	if err != nil {
		t.Skipf("no state dir outside /tmp: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(state) })
	proj := filepath.Join(state, "projects", "-w")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	transcript := filepath.Join(proj, "s1.jsonl")
	if err := os.WriteFile(transcript, []byte("{\"agent\":1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	js, err := inside.EncodeSpec(inside.Spec{Workspace: ws, Writable: []string{state}, AgentState: []string{state}})
	if err != nil {
		t.Fatal(err)
	}
	plan := filepath.Join(t.TempDir(), "cmdline")
	if err := os.WriteFile(plan, []byte(strings.Join([]string{"helper", inside.Arg, inside.Stage1, string(js), "--", "agent"}, "\x00")), 0o644); err != nil {
		t.Fatal(err)
	}
	script := `cd "$WS"; P="$S/projects/-w"; echo planted > planted.jsonl
try() { if eval "$2" 2>err; then echo "$1=written"; else echo "$1=refused($(cat err))"; fi; }
try append 'echo x >> "$P/s1.jsonl"'
try new 'echo x > "$P/s2.jsonl"'
try python 'python3 -c "open(\"$P/s3.jsonl\", \"a\").write(\"x\")"'
try truncate 'truncate -s 0 "$P/s1.jsonl"'
try hardlink 'ln planted.jsonl "$P/s4.jsonl"'
try mv 'mv planted.jsonl "$P/s5.jsonl"'
try rename 'python3 -c "import os; os.rename(\"planted.jsonl\", \"$P/s6.jsonl\")"'
try rmdir 'rm -rf "$S/projects"'
try symlink 'ln -sfn "$WS" "$S/projects2" && mv -T "$S/projects2" "$S/projects"'
try linkout 'ln "$P/s1.jsonl" out.jsonl && echo x >> out.jsonl'
try nested '"$W" -c "echo x >> \"$P/s1.jsonl\""'
try workspace 'echo ok > ws.txt'
try tmp 'echo ok > /tmp/shellscope-$$ && rm /tmp/shellscope-$$'
try devnull 'echo ok > /dev/null'`
	cmd := exec.Command(self, "-c", script)
	cmd.Env = append(os.Environ(), envWrap+"="+bash, envPlan+"="+plan, "W="+self, "WS="+ws, "S="+state)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the wrapped shell: %v\n%s", err, out)
	}
	t.Logf("the wrapped shell:\n%s", out)
	for _, refused := range []string{"append", "new", "python", "truncate", "hardlink", "mv", "rename", "rmdir", "symlink", "linkout", "nested"} {
		if !strings.Contains(string(out), refused+"=refused(") {
			t.Errorf("%s into the agent's state was not refused:\n%s", refused, out)
		}
	}
	for _, written := range []string{"workspace", "tmp", "devnull"} {
		if !strings.Contains(string(out), written+"=written") {
			t.Errorf("%s is no longer writable:\n%s", written, out)
		}
	}
	if !strings.Contains(string(out), "Permission denied") {
		t.Errorf("no refusal reads EACCES:\n%s", out)
	}
	var names []string
	filepath.Walk(state, func(p string, _ os.FileInfo, _ error) error {
		names = append(names, strings.TrimPrefix(p, state))
		return nil
	})
	if want := []string{"", "/projects", "/projects/-w", "/projects/-w/s1.jsonl"}; !slices.Equal(names, want) {
		t.Errorf("the agent's state holds %q, want %q", names, want)
	}
	if b, _ := os.ReadFile(transcript); string(b) != "{\"agent\":1}\n" {
		t.Errorf("the transcript reads %q", b)
	}
}
