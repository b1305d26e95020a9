package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestInlineImportsOff: with the sandbox off, a Python snippet that
// imports the project's own package or a declared dependency only to read
// its version is allowed (inlineimports_off.go). Shapes from polcorp6/8/10
// and polcorp1206 (python -c 'import mypkg; print(mypkg.__version__)').
// Calling into the package, importing an undeclared one, aliases, from
// imports, and the rest of the snippet doing more than computing still
// ask.
func TestInlineImportsOff(t *testing.T) {
	off := testEnv(t)
	for f, body := range map[string]string{
		"mypkg/__init__.py": "__version__ = '1.0'\n",
		"requirements.txt":  "fastapi==0.110\nboto3>=1.0\n",
	} {
		p := filepath.Join(off.Workspace, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := Default()
	allow := []string{
		`python -c 'import mypkg; print(mypkg.__version__)'`,
		`timeout 600 python -c 'import mypkg; print(mypkg.__version__)'`,
		`python -c 'import mypkg; print(mypkg.__version__)' || true`,
		`python3 -c "import mypkg, sys; print(mypkg.__version__, sys.version)"`,
		`source .venv/bin/activate; python -c "import fastapi; print(fastapi.__version__)"`,
		`python -c "import mypkg; print('Setup OK')"`,
	}
	ask := []string{
		`python -c 'import mypkg; mypkg.main()'`,
		`python -c 'import mypkg; print(mypkg.__version__.split())'`,
		`python -c 'import mypkg; print(mypkg.__class__)'`,
		`python -c 'import mypkg; f = mypkg; f.run()'`,
		`python -c 'import mypkg; getattr(mypkg, "run")()'`,
		`python -c 'import mypkg as m; print(m.__version__)'`,
		`python -c 'from mypkg import run; run()'`,
		`python -c 'import mypkg.cli; print(mypkg.cli.__name__)'`,
		`python -c 'import boto3; boto3.client("s3").delete_bucket(Bucket="x")'`,
		`python -c 'import requests; print(requests.__version__)'`, // not declared
		`python -c 'import mypkg, os; print(mypkg.__version__); os.system("id")'`,
		`python -c 'import mypkg; print(mypkg.__version__); open("x.txt", "w").write("1")'`,
		`python -c 'import mypkg; print(mypkg.__version__); print(open("/etc/passwd").read())'`,
		`python -c 'import mypkg; print(mypkg.__version__); import subprocess'`,
		`echo 'import os' > mypkg/__init__.py && python -c 'import mypkg; print(mypkg.__version__)'`,
	}
	in := off
	in.InPlace = true
	for _, cmd := range allow {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: off}); v.Decision != Allow {
			t.Errorf("off: %q: %s by %s (%s), want allow", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
	for _, cmd := range ask {
		for _, cx := range []Context{off, in} {
			if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: cx}); v.Decision == Allow {
				t.Errorf("off (in place %v): %q allowed by %s (%s)", cx.InPlace, cmd, v.Rule, v.Reason)
			}
		}
	}
}
