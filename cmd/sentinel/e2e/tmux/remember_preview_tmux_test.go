package tmux

import (
	"path/filepath"
	"testing"

	"github.com/sentinelhq/sentinel/cmd/sentinel/internal/e2etest"
)

// previewScenario asks three times: a deploy the project's own rule denies,
// then two commands the policy asks about.
const previewScenario = `
name = "preview"

[[steps]]
id = "deploy"
shell = "mytool run deploy"

[[steps]]
id = "lint"
shell = "mytool run lint"

[[steps]]
id = "test"
shell = "mytool run test"
`

// previewRule is a project rule: deploys are denied.
const previewRule = `
[[rule]]
id = "no-deploy"
decision = "deny"
argv = ["mytool", "run", "deploy"]
reason = "deploys are for release day"
`

// TestRememberPreviewAsksTheRunsChain: the remember chooser's preview comes
// from the run's own approval chain, which loads the project's rules. With
// a project rule denying `mytool run deploy`, remembering `mytool run …`
// would have covered the lint run only — the broker would never have let the
// grant cover the deploy. A preview from the built-in rules alone (the TUI's
// old engine of its own) says 2 of 2.
func TestRememberPreviewAsksTheRunsChain(t *testing.T) {
	t.Parallel()
	dir := e2etest.ScratchRepo(t)
	e2etest.WriteFile(t, filepath.Join(dir, ".sentinel", "policy.toml"), previewRule)
	scenario := filepath.Join(t.TempDir(), "preview.toml")
	e2etest.WriteFile(t, scenario, previewScenario)
	tm := e2etest.StartSentinel(t, dir, []string{"XDG_CONFIG_HOME=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir()},
		"run", "--coder", "demo", "--scenario", scenario, "Try the remember preview.")
	tm.WaitArmed("the card for the lint run", e2etest.Has("command  mytool run lint"))
	tm.PressUntil("a", "the card for the test run", e2etest.Has("command  mytool run test"))
	tm.WaitArmed("the card for the test run", e2etest.Has("command  mytool run test"))
	tm.PressUntil("r", "the remember chooser", e2etest.Has("REMEMBER · how broad?"))
	tm.PressUntil("Down", "the broadest grant", e2etest.Has("▸ starting with: mytool run …"))
	tm.WaitFor("the preview from the run's chain", e2etest.Has("would have covered 1 of 2 earlier requests"))
}
