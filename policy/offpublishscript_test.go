package policy

import "testing"

// A project script whose name says it installs, publishes or deploys asks
// with the sandbox off, however it is run, as `make deploy` and `npm run
// release` do; in the sandbox it stays the project's code. Other scripts
// stay allowed off (offcode.go). Seen failing without the check in
// runScript: scripts/deploy.sh, bin/release and the others were allowed
// off as "the project's own code".
func TestPublishingScriptsAskOff(t *testing.T) {
	ws := t.TempDir()
	files := map[string]string{}
	for _, f := range []string{"scripts/deploy.sh", "scripts/release.py", "bin/publish.js", "scripts/install-hooks.sh",
		"scripts/test.sh", "scripts/build.py", "deploy-prod.sh"} {
		files[f] = "#!/bin/sh\necho\n"
	}
	writeWS(t, ws, files) // declaredtools_off_test.go
	ctx := testEnv(t)
	ctx.Workspace, ctx.Cwd = ws, ws
	off, on := ctx, ctx
	on.Sandboxed = true
	e := Default()
	for _, tc := range []struct {
		cmd     string
		off, on Decision
	}{
		{"sh scripts/deploy.sh", Ask, Allow},
		{"bash scripts/deploy.sh --env staging", Ask, Allow},
		{"./scripts/deploy.sh", Ask, Allow},
		{"python3 scripts/release.py", Ask, Allow},
		{"node bin/publish.js", Ask, Allow},
		{"sh scripts/install-hooks.sh", Ask, Allow},
		{"sh ./deploy-prod.sh", Ask, Allow},
		{"sh scripts/test.sh", Allow, Allow},
		{"python3 scripts/build.py", Allow, Allow},
		{"./scripts/test.sh", Allow, Allow},
	} {
		if v := e.Check(Query{Kind: KindShell, Command: tc.cmd, Context: off}); v.Decision != tc.off {
			t.Errorf("%q off: %s by %s (%s), want %s", tc.cmd, v.Decision, v.Rule, v.Reason, tc.off)
		}
		if v := e.Check(Query{Kind: KindShell, Command: tc.cmd, Context: on}); v.Decision != tc.on {
			t.Errorf("%q on: %s by %s (%s), want %s", tc.cmd, v.Decision, v.Rule, v.Reason, tc.on)
		}
	}
}
