package policy

import "testing"

// TestEnvValueJudgedByValue: a variable that can change what runs is
// everyday when its value only tunes memory, warnings, tests or names a
// compiler, and is never allowed when the value loads code or names a
// program by its path, with the sandbox on or off.
func TestEnvValueJudgedByValue(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	everyday := []string{
		"NODE_OPTIONS=--max-old-space-size=4096 npm run build",
		"NODE_OPTIONS='--max-old-space-size=8192 --enable-source-maps' npm test",
		"RUSTFLAGS='-D warnings' cargo build",
		"RUSTFLAGS=-Dwarnings cargo clippy",
		"RUSTFLAGS='-C target-cpu=native -C opt-level=3' cargo build --release",
		"GOFLAGS=-count=1 go test ./...",
		"GOFLAGS='-mod=mod -tags=integration' go test ./...",
		"MAVEN_OPTS=-Xmx1g mvn test",
		"MAVEN_OPTS='-Xmx2g -XX:+UseG1GC -Dfile.encoding=UTF-8' mvn test",
		"JAVA_TOOL_OPTIONS=-Xmx2g gradle build",
		"GRADLE_OPTS='-Xmx4g -Dorg.gradle.daemon=false' gradle build",
		"CC=clang make",
		"CC=gcc-12 CXX=g++-12 make",
		"CFLAGS='-O2 -g -Wall -Werror' make",
		"MAKEFLAGS=-j8 make",
		"PYTEST_ADDOPTS='-x -q' pytest",
		"PYTHONWARNINGS=error::DeprecationWarning pytest -q",
		"export NODE_OPTIONS=--max-old-space-size=4096",
		"env RUSTFLAGS=-Dwarnings cargo build",
		"PORT=3000 RAILS_ENV=test npm test",
		"CARGO_PROFILE_RELEASE_DEBUG=true cargo build --release",
		"JAVA_HOME=/usr/lib/jvm/java-17-openjdk-amd64 mvn test",
	}
	loadsCode := []string{
		"NODE_OPTIONS='--require /tmp/x.js' npm test",
		"NODE_OPTIONS=--require=./hook.js npm test",
		"NODE_OPTIONS='--max-old-space-size=4096 -r ./hook.js' npm test",
		"NODE_OPTIONS=--import=./x.mjs npm test",
		"NODE_OPTIONS=--experimental-loader=./l.mjs npm test",
		"NODE_OPTIONS=--inspect=0.0.0.0:9229 npm test",
		`NODE_OPTIONS="--enable-source-maps $X" npm test`,
		"NODE_OPTIONS='--enable-source-maps;id' npm test",
		"JAVA_TOOL_OPTIONS=-javaagent:/tmp/a.jar mvn test",
		"MAVEN_OPTS='-Xmx1g -XX:OnOutOfMemoryError=sh' mvn test",
		"MAVEN_OPTS=-Dmaven.repo.local=/tmp/r mvn test",
		"JAVA_TOOL_OPTIONS=-agentpath:/tmp/a.so mvn test",
		"GOFLAGS=-toolexec=/tmp/x go test ./...",
		"GOFLAGS='-count=1 -exec=/tmp/x' go test ./...",
		"GOFLAGS=-ldflags=-extld=/tmp/x go build",
		"RUSTFLAGS='-C linker=/tmp/x' cargo build",
		"RUSTFLAGS=-Clink-arg=-fuse-ld=/tmp/x cargo build",
		"RUSTFLAGS='-Z unstable-options' cargo build",
		"RUSTC_WRAPPER=./wrap cargo build",
		"CC=/tmp/evil make",
		"CC=./cc make",
		"CC='clang -B/tmp' make",
		"CFLAGS=-fplugin=./x.so make",
		"CFLAGS=-Wl,-plugin,/tmp/x.so make",
		"MAKEFLAGS=--eval=x make",
		"PYTEST_ADDOPTS='-p evil' pytest",
		"PYTHONWARNINGS=ignore::evil.Warning pytest",
		"PYTHONBREAKPOINT=evil.hook pytest",
		"JAVA_HOME=/tmp/jdk mvn test",
		"GOTOOLCHAIN=go1.99.0 go build",
		"LD_PRELOAD=./x.so make",
		"BASH_ENV=./x.sh bash -c ls",
		"PYTHONSTARTUP=./x.py python",
		"PATH=./bin:$PATH make",
		"export NODE_OPTIONS=--require=./x.js",
		"declare -x NODE_OPTIONS=-r./x.js",
		"env NODE_OPTIONS='-r ./x.js' node app.js",
	}
	for _, sb := range []bool{true, false} {
		cx := ctx
		cx.Sandboxed = sb
		for _, l := range everyday {
			if v := e.Check(Query{Kind: KindShell, Command: l, Context: cx}); sb && v.Decision != Allow {
				t.Errorf("sandbox on: %q: %s by %s (%s), want allow", l, v.Decision, v.Rule, v.Reason)
			}
		}
		for _, l := range loadsCode {
			if v := e.Check(Query{Kind: KindShell, Command: l, Context: cx}); v.Decision == Allow {
				t.Errorf("sandbox %v: %q ALLOWED by %s (%s)", sb, l, v.Rule, v.Reason)
			}
		}
	}
}
