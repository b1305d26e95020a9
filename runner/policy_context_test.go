package runner

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/sentinelhq/sentinel/policy"
	"github.com/sentinelhq/sentinel/sandbox"
)

// A run with --sandbox off judges with the off answers: the policy is then
// the only gate, so a project script the policy cannot judge (no shebang
// line) asks instead of running.
func TestRunPolicyContextFollowsTheSandbox(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "build.sh"), []byte("go build ./...\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for mode, want := range map[sandbox.Mode]policy.Decision{
		sandbox.ModeAuto: policy.Allow, sandbox.ModeBwrap: policy.Allow, sandbox.ModeOff: policy.Ask,
	} {
		r := &containment{runCore: &runCore{opts: Options{Sandbox: SandboxOptions{Mode: mode}}, ws: &Workspace{Dir: ws}}}
		ctx := r.policyContext()
		if ctx.Sandboxed != (mode != sandbox.ModeOff) {
			t.Errorf("--sandbox %s: Sandboxed = %v", mode, ctx.Sandboxed)
		}
		v := policy.Default().Check(policy.Query{Kind: policy.KindShell, Command: "./build.sh", Context: ctx})
		if v.Decision != want {
			t.Errorf("--sandbox %s: ./build.sh is %s by %s, want %s", mode, v.Decision, v.Rule, want)
		}
	}
}

// The variables the policy takes for the workspace are the ones the coder's
// environment sets to it: cd "$CLAUDE_PROJECT_DIR" && go test ./... is
// judged in the workspace, and the coder's shell goes there.
func TestRunPolicyContextWorkspaceVars(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	r := &containment{runCore: &runCore{opts: Options{Sandbox: SandboxOptions{Mode: sandbox.ModeAuto}}, ws: &Workspace{Dir: ws}}}
	ctx := r.policyContext()
	env := workspaceEnv(ws)
	for _, n := range ctx.WorkspaceVars {
		if !slices.Contains(env, n+"="+ws) {
			t.Errorf("the policy takes $%s for the workspace but the coder's environment %q does not set it", n, env)
		}
	}
	v := policy.Default().Check(policy.Query{Kind: policy.KindShell, Command: `cd "$CLAUDE_PROJECT_DIR" && go test ./...`, Context: ctx})
	if v.Decision != policy.Allow {
		t.Errorf(`cd "$CLAUDE_PROJECT_DIR" && go test ./... is %s by %s (%s), want allow`, v.Decision, v.Rule, v.Reason)
	}
}
