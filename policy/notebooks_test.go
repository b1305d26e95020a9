package policy

import "testing"

// TestNotebookConversion: jupyter nbconvert of workspace notebooks with
// known options runs the project's code inside the sandbox and asks
// without it; templates, configuration, notebooks or outputs outside the
// workspace, and jupyter's servers never pass.
func TestNotebookConversion(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	on, off := ctx, ctx
	on.Sandboxed = true
	for _, l := range []string{
		"jupyter nbconvert --to notebook --inplace --execute --ExecutePreprocessor.kernel_name=python analysis.ipynb",
		"jupyter nbconvert --execute output.ipynb --to html",
	} {
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: on}); v.Decision != Allow {
			t.Errorf("sandbox on: %q: %s by %s (%s), want allow", l, v.Decision, v.Rule, v.Reason)
		}
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: off}); v.Decision == Allow {
			t.Errorf("sandbox off: %q ALLOWED by %s (%s)", l, v.Rule, v.Reason)
		}
	}
	// off30: a conversion that runs no cell is allowed off too (premise
	// changed: the --stdout row here asked off before); --execute still
	// asks off (above). Rows from polcorp7/10/11's nbconvert --to script.
	checkOnOffIn(t, ctx, []onOff{
		{"jupyter nbconvert --to script notebook.ipynb --stdout | head -50", Allow, Allow},
		{"jupyter nbconvert --to script notebooks/eda.ipynb", Allow, Allow},
		{"jupyter nbconvert --to script notebooks/analysis.ipynb --output-dir build/", Allow, Allow},
		{"nice -n 10 jupyter nbconvert --to script notebooks/analysis.ipynb --stdout | head -50", Allow, Allow},
		{"jupyter nbconvert --to script notebooks/eda.ipynb 2>&1 | wc -l", Allow, Allow},
		{"echo x > jupyter_nbconvert_config.py && jupyter nbconvert --to script n.ipynb", Allow, Ask},
		{"jupyter nbconvert --to script --output-dir ~/bin n.ipynb", Deny, Deny},
	})
	for _, l := range []string{
		"jupyter nbconvert --to html --template /tmp/evil x.ipynb",
		"jupyter nbconvert --config /tmp/c.py x.ipynb",
		"jupyter nbconvert --to html --output-dir " + ctx.Home + " x.ipynb",
		"jupyter nbconvert --execute " + ctx.Home + "/x.ipynb",
		"jupyter nbconvert --to html $NB",
		"jupyter notebook --ip=0.0.0.0",
		"jupyter lab",
	} {
		for _, cx := range []Context{on, off} {
			if v := e.Check(Query{Kind: KindShell, Command: l, Context: cx}); v.Decision == Allow {
				t.Errorf("sandbox %v: %q ALLOWED by %s (%s)", cx.Sandboxed, l, v.Rule, v.Reason)
			}
		}
	}
}
