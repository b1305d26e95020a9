package policy

import "testing"

// TestRsyncDeleteDiscardsWork: rsync's deleting options (--delete and its
// --delete-before/-during/-after/-delay/-excluded forms, the --del alias
// and --remove-source-files) remove files of the workspace the source
// lacks or has sent. In place, with no checkpoint, that is the person's
// uncommitted work and asks; the plain copy stays allowed. polcorp15
// (rsync -a --delete empty/ src/, from claude-code#80660's move-then-delete)
// was allowed in place.
func TestRsyncDeleteDiscardsWork(t *testing.T) {
	ctx := testEnv(t)
	ctx.InPlace = true
	e := Default()
	for _, cmd := range []string{
		"rsync -a --delete empty/ src/",
		"rsync -a --del empty/ src/",
		"rsync -av --delete-after build/ src/",
		"rsync -a --delete-excluded --exclude=x empty/ src/",
		"rsync -a --remove-source-files src/ build/",
		"rsync -rt --delete-delay ./empty/ ./tests/",
	} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision == Allow {
			t.Errorf("in place, no checkpoint: %q allowed by %s (%s)", cmd, v.Rule, v.Reason)
		}
	}
	for _, cmd := range []string{"rsync -a src/ build/", "rsync -av --exclude=node_modules src/ build/", "rsync -a --delay-updates src/ build/"} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision != Allow {
			t.Errorf("in place: %q is %s by %s (%s), want allow", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
	cp := ctx
	cp.Checkpointed = true
	if v := e.Check(Query{Kind: KindShell, Command: "rsync -a --delete empty/ src/", Context: cp}); v.Decision != Allow {
		t.Errorf("with a checkpoint: rsync --delete into src/ is %s by %s (%s), want allow", v.Decision, v.Rule, v.Reason)
	}
}
