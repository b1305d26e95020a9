package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// modeCase is a line and what it must get with the sandbox on and off:
// "allow", "ask", "deny", "!allow" (ask or deny).
type modeCase struct{ line, on, off string }

func checkModes(t *testing.T, cases []modeCase) {
	t.Helper()
	ctx := testEnv(t)
	for _, d := range []string{"target", "sub/b"} {
		if err := os.MkdirAll(filepath.Join(ctx.Workspace, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"target/app.jar", "build/main", "settings.xml"} {
		if err := os.WriteFile(filepath.Join(ctx.Workspace, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/dev/stdin", filepath.Join(ctx.Workspace, "sub/stdin")); err != nil {
		t.Fatal(err)
	}
	e := Default()
	for _, c := range cases {
		for _, sb := range []bool{true, false} {
			want := c.off
			if sb {
				want = c.on
			}
			cx := ctx
			cx.Sandboxed = sb
			v := e.Check(Query{Kind: KindShell, Command: c.line, Context: cx})
			if !(v.Decision.String() == want || want == "!allow" && v.Decision != Allow) {
				t.Errorf("(sandbox %v) %q: got %s by %s (%s), want %s", sb, c.line, v.Decision, v.Rule, v.Reason, want)
			}
		}
	}
}

// polcorp1207's misses as classes (issue 32), each with spellings the
// corpus does not have and the unsafe neighbours that must stay asked.

// A name of standard input reached through .. or a workspace link is
// standard input (unseen.go), and /dev/stdin is not followed in the
// policy's own process (paths.go perProcessLink).
func TestRelativeStdinNamesAreStreams(t *testing.T) {
	checkModes(t, []modeCase{
		{"make -f ../../dev/stdin", "ask", "ask"},
		{"make -f ./../../../../../../../dev/fd/0", "ask", "ask"},
		{"cd sub/b && make -f ../../../../../../../../dev/stdin", "ask", "ask"},
		{"make -f sub/stdin", "ask", "ask"},
		{"make --file=../../../../../../proc/self/fd/0", "ask", "ask"},
		{"make -f Makefile test", "allow", "allow"},
	})
}

// wget -T 5: the timeout's number is no host written as a number.
func TestFetchOptionNumbersAreNoHosts(t *testing.T) {
	checkModes(t, []modeCase{
		{"wget -T 5 http://localhost:8080/", "ask", "ask"},
		{"wget --tries 3 https://example.com/x.tgz", "ask", "ask"},
		{"curl -m 5 -s http://localhost:3000/health", "allow", "allow"}, // hostloopback.go
		{"curl --retry 3 -s http://127.0.0.1:8080/", "allow", "allow"},
		{"wget -T 5 2130706433", "deny", "deny"},
		{"curl -m 5 0x7f000001", "deny", "deny"},
	})
}

// PATH with the workspace's program folders added is the project's own
// code; any other PATH still denies.
func TestPathPrependOfTheWorkspace(t *testing.T) {
	checkModes(t, []modeCase{
		{`export PATH="$PWD/node_modules/.bin:$PATH" && jest`, "allow", "ask"},
		{`export PATH="$(pwd)/node_modules/.bin:$PATH"; jest --ci`, "allow", "ask"},
		{`PATH=$PWD/build:$PATH make test`, "allow", "ask"},
		{`export PATH="${PATH}:${PWD}/node_modules/.bin"`, "allow", "ask"},
		{`export PATH=/opt/evil/bin:$PATH`, "deny", "deny"},
		{`export PATH="$HOME/.local/bin:$PATH"`, "deny", "deny"},
		{`export PATH="$PWD/build"`, "deny", "deny"},
		{`export PATH=".:$PATH"`, "deny", "deny"},
		{`export PATH="$PWD/build::$PATH"`, "deny", "deny"},
		{`export PATH="$PWD/../bin:$PATH"`, "deny", "deny"},
		{`export PATH="$PWD/.git/hooks:$PATH"`, "deny", "deny"},
		{`cd /tmp && export PATH="$PWD/bin:$PATH"`, "deny", "deny"},
		{`PWD=/tmp; export PATH="$PWD/bin:$PATH"`, "deny", "deny"},
		{`cd "$D"; export PATH="$PWD/bin:$PATH"`, "!allow", "!allow"},
		{`export PATH="$PWD/node_modules/.bin:$PATH" && rm -rf ~`, "deny", "deny"},
	})
}

// Running the project's build output, its settings, presets and
// generators.
func TestBuildOutputsAndProjectSettings(t *testing.T) {
	checkModes(t, []modeCase{
		{"java -jar target/app.jar --help", "allow", "allow"},                                // pol23: a jar of the project's build output runs off as make test (projectbuilds_off.go)
		{"java -Xmx512m -Dspring.profiles.active=dev -jar target/app.jar", "allow", "allow"}, // pol23: a jar of the project's build output runs off as make test (projectbuilds_off.go)
		{"java -cp target/classes com.example.Main", "allow", "ask"},
		{"java -jar /opt/tool.jar", "ask", "ask"},
		{"java -javaagent:/tmp/a.jar -jar target/app.jar", "ask", "ask"},
		{"java -cp /opt/lib com.example.Main", "ask", "ask"},
		{"ldd build/main", "allow", "ask"},
		{"ldd /usr/bin/env", "allow", "allow"},
		{"cloc .", "allow", "allow"},
		{"cloc --exclude-dir=node_modules,vendor --json src", "allow", "allow"},
		{`cloc --extract-with="sh -c id" x.tgz`, "ask", "ask"},
		{"cloc --report-file=/etc/x .", "!allow", "!allow"},
		{"mvn -s settings.xml test", "allow", "ask"},
		{"mvn --settings settings.xml -q verify", "allow", "ask"},
		{"mvn -s /etc/maven/other.xml test", "ask", "ask"},
		{"mvn -s ../settings.xml test", "ask", "ask"},
		{"mvn -s settings.xml deploy", "deny", "deny"},
		{"cmake --preset dev", "allow", "allow"},
		{"cmake --preset=release -DCMAKE_BUILD_TYPE=Release", "allow", "allow"},
		{"cmake --preset \"$P\"", "ask", "ask"},
		{"dotnet ef migrations add AddUsers", "allow", "allow"},
		{"dotnet ef migrations add Init -o Data/Migrations --project src/Api", "allow", "allow"},
		{"dotnet ef migrations add Init -o /etc/x", "deny", "deny"},
		{"dotnet ef database update", "ask", "ask"},
		{"dotnet ef migrations remove", "ask", "ask"},
		{"bundle exec srb tc", "allow", "allow"},
		{"srb init", "ask", "ask"},
		{"bundle audit", "allow", "allow"},
		{"bundle exec bundler-audit check --update", "allow", "ask"},
		{"bundler-audit check --config /etc/x", "ask", "ask"},
	})
}

// find deleting regenerable artefacts; perl -pi with a plain s///.
func TestArtefactCleaningAndPerlSubstitution(t *testing.T) {
	checkModes(t, []modeCase{
		{"find . -name '*.pyc' -delete", "allow", "allow"},
		{"find . -type d -name __pycache__ -exec rm -rf {} +", "allow", "allow"},
		{"find src -name '*.o' -type f -delete", "allow", "allow"},
		{"find . -name '*.pyc' -o -name '*.go' -delete", "ask", "ask"},
		{"find . -name *.pyc -delete", "ask", "ask"},
		{"find . -name '*.go' -delete", "ask", "ask"},
		{"find . -not -name '*.pyc' -delete", "deny", "deny"}, // polcorp16: it deletes ./.git with the rest (projectwipe.go)
		{"find / -name '*.pyc' -delete", "deny", "deny"},
		{"find . -name __pycache__ -exec rm -rf {} ~ +", "deny", "deny"},
		{"perl -pi -e 's/oldName/newName/g' src/*.go", "allow", "allow"},
		{"perl -i -pe 's/foo/bar/' a b", "allow", "allow"},
		{"perl -pi -e 's/(\\d+)/$1/' file", "allow", "allow"},
		{`perl -pi -e 's/a/system("id")/e' file`, "ask", "ask"},
		{`perl -pi -e 's/a/${\ system("id")}/' file`, "ask", "ask"},
		{"perl -pi -e 's/a/@{[ `id` ]}/' file", "ask", "ask"},
		{`perl -pi -e 's/(?{ system("id") })a/b/' file`, "ask", "ask"},
		{"perl -pie 's/a/b/' file", "ask", "ask"},
		{"perl -ni -e 's/a/b/' file", "ask", "ask"},
		{"perl -pi -e 's/a/b/' ~/.bashrc", "deny", "deny"},
	})
}

// A Path bound once and only read and written; timeout's duration from
// the environment.
func TestBoundPathWritesAndVariableDurations(t *testing.T) {
	checkModes(t, []modeCase{
		// off26: a literal workspace write is judged off as sed -i is (offinline_writes.go)
		{"python3 - <<'EOF'\nfrom pathlib import Path\np = Path('src/config.py')\np.write_text(p.read_text().replace('DEBUG = True', 'DEBUG = False'))\nEOF", "allow", "allow"},
		{"python3 - <<'EOF'\nfrom pathlib import Path\np = Path('src/a.py')\np = Path('/etc/x')\np.write_text('x')\nEOF", "ask", "ask"},
		{"python3 - <<'EOF'\nfrom pathlib import Path\np = Path('src/a.py')\nq = p\nq.write_text('x')\nEOF", "ask", "ask"},
		{"python3 - <<'EOF'\nfrom pathlib import Path\np = Path('.git/hooks/pre-commit')\np.write_text('x')\nEOF", "deny", "deny"}, // off26: denied off as inside the sandbox
		{"timeout $T go test ./...", "allow", "allow"},
		{`timeout "${TIMEOUT:-60}" go test ./...`, "allow", "allow"},
		{"timeout -k 5 ${T}s go vet ./...", "allow", "allow"},
		{"timeout $T rm -rf ~", "deny", "deny"},
		{"read T; timeout $T go test ./...", "ask", "ask"},
		{"T='5 rm -rf /'; timeout $T go test ./...", "deny", "deny"}, // bash splits $T: timeout 5 rm -rf / go test ./... (bindprop.go)
		{"timeout ${T:=5} go test ./...", "ask", "ask"},
		{"timeout $(printf 5) go test ./...", "ask", "ask"},
		{`env T="5 rm -rf /" bash -c 'timeout $T go test ./...'`, "!allow", "!allow"},
	})
}
