package policy

import "testing"

// TestReview29NotebooksAndRsyncNeverAllow: the session's policy review
// (revpol) found these allowed. nbconvert's --ExecutePreprocessor.enabled
// turns running on as --execute does (the kernel may be any the person
// installed); jupytext loads .jupytext.py (traitlets runs it) from the
// working directory, so a line that writes first and then runs jupytext
// runs what it wrote, and a paired format may name a folder joined to the
// notebook's as text (../ climbs out: /etc/profile.d, ~/.bashrc), and
// --sync writes the pairs the notebook's own metadata names. rsync's
// deprecated --remove-sent-files and a deleting option handed on as a
// remote option (-M, --remote-option; a local copy's receiver is this
// machine) discard files as --delete does.
func TestReview29NotebooksAndRsyncNeverAllow(t *testing.T) {
	off := testEnv(t)
	on := off
	on.Sandboxed = true
	e := Default()
	for _, cmd := range []string{
		"jupyter nbconvert --to notebook --ExecutePreprocessor.enabled=True --inplace nb/a.ipynb",
		"jupyter nbconvert --to notebook --ExecutePreprocessor.enabled True --inplace nb/a.ipynb",
		"jupyter nbconvert --ExecutePreprocessor.enabled=1 --ExecutePreprocessor.kernel_name=remote nb/a.ipynb",
		`printf 'import os\nos.system("id")\n' > .jupytext.py; jupytext --to py nb/a.ipynb`,
		"echo x > .jupytext.py && jupytext --to py nb/a.ipynb",
		"jupytext --sync nb/a.ipynb",
	} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: off}); v.Decision == Allow {
			t.Errorf("sandbox off: %q allowed by %s (%s)", cmd, v.Rule, v.Reason)
		}
	}
	for _, cmd := range []string{
		"jupytext --to ../../../../../../../../etc/profile.d//sh nb/a.ipynb",
		"jupytext --set-formats ipynb,../../../../root/.bashrc//py nb/a.ipynb",
		"jupytext --set-formats=ipynb,../x//py nb/a.ipynb",
		"jupytext --opt formats=ipynb,../../x//py nb/a.ipynb",
	} {
		for _, c := range []Context{on, off} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: c}); v.Decision == Allow {
				t.Errorf("sandbox %v: %q allowed by %s (%s)", c.Sandboxed, cmd, v.Rule, v.Reason)
			}
		}
	}
	in := off
	in.InPlace = true
	for _, cmd := range []string{
		"rsync -a --remove-sent-files src/ out/",
		"rsync -a --remove-sent src/ out/",
		"rsync -a -M--delete src/ out/",
		"rsync -a --remote-option=--delete src/ out/",
		"rsync -a --remote-option=--remove-source-files src/ out/",
	} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: in}); v.Decision == Allow {
			t.Errorf("in place, no checkpoint: %q allowed by %s (%s)", cmd, v.Rule, v.Reason)
		}
	}
	// Still everyday: a conversion that runs nothing, a format without a
	// folder, a plain copy.
	for _, q := range []struct {
		cmd string
		c   Context
	}{
		{"jupyter nbconvert --to html nb/a.ipynb", off},
		{"jupytext --to py:percent src/eda.ipynb", off},
		{"jupytext --set-formats ipynb,py:percent src/eda.ipynb", on},
		{"rsync -a src/ build/", in},
	} {
		if v := e.Check(Query{Kind: KindShell, Command: q.cmd, Context: q.c}); v.Decision != Allow {
			t.Errorf("sandbox %v: %q is %s by %s (%s), want allow", q.c.Sandboxed, q.cmd, v.Decision, v.Rule, v.Reason)
		}
	}
}
