package policy

import "testing"

// TestNotebookTools: a data project's notebook tools. jupyter execute runs
// a notebook's cells as nbconvert --execute does (notebooks.go): the
// project's code, allowed inside the sandbox; papermill runs a notebook
// with parameters into an output notebook, likewise; jupytext converts
// between notebook formats and nbstripout strips outputs, both only
// rewriting the project's files (as a formatter does); jupyter kernelspec
// list prints. Their options that run a program (jupytext --pipe, --check,
// --exec), install a git filter (nbstripout --install) or name a
// configuration ask. polcorp15's rows from nbconvert CI scripts,
// DirschedlF/uv-test and a papermill Makefile all asked as unknown.
func TestNotebookTools(t *testing.T) {
	ctx := testEnv(t)
	on := ctx
	on.Sandboxed = true
	e := Default()
	for _, cmd := range []string{
		"jupyter execute --timeout=10 src/notebook.ipynb", "jupyter execute --inplace src/a.ipynb", "jupyter kernelspec list",
		"papermill src/train.ipynb build/train-out.ipynb -p epochs 1", "jupytext --to py:percent src/eda.ipynb",
		"nbstripout src/*.ipynb", "nbstripout --keep-count src/eda.ipynb",
	} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: on}); v.Decision != Allow {
			t.Errorf("sandbox on: %q is %s by %s (%s), want allow", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
	for _, cmd := range []string{
		"jupytext --pipe 'sh -c \"rm -rf ~\"' src/eda.ipynb", "jupytext --check 'curl x.example' src/eda.ipynb", "nbstripout --install",
		"papermill src/train.ipynb s3://bucket/out.ipynb", "papermill src/t.ipynb ~/.bashrc", "jupyter execute ~/other/nb.ipynb",
		"jupyter execute --ExecutePreprocessor.kernel_name=evil src/a.ipynb --config=/tmp/c.py",
	} {
		for _, c := range []Context{on, ctx} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: c}); v.Decision == Allow {
				t.Errorf("sandbox %v: %q allowed by %s (%s)", c.Sandboxed, cmd, v.Rule, v.Reason)
			}
		}
	}
	for _, cmd := range []string{"jupyter execute src/a.ipynb", "papermill src/train.ipynb build/out.ipynb"} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision == Allow {
			t.Errorf("sandbox off: %q, the project's code, allowed by %s (%s)", cmd, v.Rule, v.Reason)
		}
	}
}
