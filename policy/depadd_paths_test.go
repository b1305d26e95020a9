package policy

import "testing"

// An add's options that name a place (--dir=, --cwd=, --directory=,
// -modfile=, --constraint=) are judged as the paths they are, in every
// spelling; an editable install is a path, not the registry; a loopback
// server with no -d serves where it runs, which a cd may have moved.
func TestAddOptionsAndServedDirsAreJudgedAsPaths(t *testing.T) {
	ctx := testEnv(t)
	ctx.Sandboxed = true
	e := Default()
	for _, c := range []struct {
		cmd  string
		want Decision
	}{
		{"pnpm add lodash --dir=/etc", Ask},
		{"yarn add lodash --cwd=../home", Ask},
		{"uv add httpx --directory=../home", Ask},
		{"go get -modfile=../home/go.mod golang.org/x/text", Ask},
		{"pip install --constraint=../home/.netrc requests", Deny}, // the home of testEnv: a credential
		{"pip install -e ../elsewhere", Ask},
		{"pnpm add lodash", Allow},
		{"cd / && python3 -m http.server -b 127.0.0.1 8000", Ask},
		{"python3 -m http.server -b 127.0.0.1 8000", Allow},
	} {
		if v := e.Check(Query{Kind: KindShell, Command: c.cmd, Context: ctx}); v.Decision != c.want {
			t.Errorf("%q: %s by %s (%s), want %s", c.cmd, v.Decision, v.Rule, v.Reason, c.want)
		}
	}
}
