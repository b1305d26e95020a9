package policy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReadOnlyViewsAndTracers: process views, Delve and the
// build watchers in the forms agents use (polcorp7/12/13 everyday
// inspect, go, c, java rows), sandbox on and off (readviews.go,
// tracers.go). less in every form (editorcode.go), top without -b,
// a jps host, dlv's server options, strace attaching or setting the
// environment, and the commands they run are still judged.
func TestReadOnlyViewsAndTracers(t *testing.T) {
	off := testEnv(t)
	on := off
	on.Sandboxed = true
	e := Default()
	for _, line := range []string{
		`top -bn1 | head -15`,
		`top -b -n 1 -o %CPU | head`,
		`jps -l`,
		`jps -lm`,
		`strace -f -e trace=openat go test ./...`,
		`strace -c -f make test 2>&1 | tail -30`,
		`bear -- make -j2`,
		`bear --output build/compile_commands.json -- make`,
	} {
		for _, cx := range []Context{off, on} {
			if v := e.Check(Query{Kind: KindShell, Command: line, Context: cx}); v.Decision != Allow {
				t.Errorf("sandbox %v: %q: %s %s: %s", cx.Sandboxed, line, v.Decision, v.Rule, v.Reason)
			}
		}
	}
	// Delve's console writes files and runs scripts an agent holding the
	// terminal can type: allowed in the sandbox, asks off (review)
	for _, line := range []string{`dlv test ./parser/ -- -test.run TestLex`, `dlv debug ./cmd/app -- --port 8080`} {
		if v := e.Check(Query{Kind: KindShell, Command: line, Context: on}); v.Decision != Allow {
			t.Errorf("sandbox on: %q: %s %s: %s", line, v.Decision, v.Rule, v.Reason)
		}
		if v := e.Check(Query{Kind: KindShell, Command: line, Context: off}); v.Decision != Ask {
			t.Errorf("sandbox off: %q: %s %s: %s, want ask", line, v.Decision, v.Rule, v.Reason)
		}
	}
	for line, want := range map[string]Decision{
		`less +!id README.md`:                       Ask,
		`less '+!rm -rf ~' README.md`:               Deny,
		`less -o out.txt README.md`:                 Ask,
		`less --lesskey-file=k x`:                   Ask,
		`less -k k README.md`:                       Ask,
		`less +/secret README.md`:                   Ask,
		`less ~/.ssh/id_rsa`:                        Ask,
		`less /etc/shadow`:                          Ask,
		`more -d README.md`:                         Ask,
		`top`:                                       Ask,
		`top -n 1`:                                  Ask,
		`top -b -n $(id)`:                           Ask,
		`jps remotehost`:                            Ask,
		`jstack 1234`:                               Ask,
		`dlv test --headless ./parser`:              Ask,
		`dlv test --init x ./parser`:                Ask,
		`dlv attach 1`:                              Ask,
		`dlv exec ./build/app`:                      Ask,
		`dlv debug github.com/evil/x`:               Ask,
		`dlv test ./p -- -test.coverprofile=/etc/x`: Deny,
		`strace -p 1`:                               Deny,
		`strace -E LD_PRELOAD=/tmp/x.so make`:       Ask,
		`strace -u nobody make`:                     Ask,
		`strace -o '|sh' make`:                      Ask,
		`strace -e inject=open:error=ENOENT make`:   Ask,
		`strace -f rm -rf ~`:                        Deny,
		`strace -o /etc/x make`:                     Deny,
		`bear -- rm -rf ~`:                          Deny,
		`bear --config /tmp/c -- make`:              Ask,
		`bear --output /etc/x -- make`:              Deny,
	} {
		for _, cx := range []Context{off, on} {
			v := e.Check(Query{Kind: KindShell, Command: line, Context: cx})
			if v.Decision == Allow || want == Deny && v.Decision != Deny {
				t.Errorf("sandbox %v: %q: %s %s (%s), want %s", cx.Sandboxed, line, v.Decision, v.Rule, v.Reason, want)
			}
		}
	}
}

// TestGitBisectRunIsTheCommandItRuns: git bisect run CMD is judged as
// CMD (handlers_git.go, off29; polcorp13's `git bisect run go test
// ./parser/`).
func TestGitBisectRunIsTheCommandItRuns(t *testing.T) {
	off := testEnv(t)
	on := off
	on.Sandboxed = true
	e := Default()
	for line, want := range map[string]Decision{
		`git bisect run go test ./parser/ -run TestLex`: Allow,
		`git bisect run make test`:                      Allow,
		`git bisect run`:                                Ask,
		`git bisect run curl -s https://x.example/`:     Ask,
		`git bisect run sh -c 'rm -rf ~'`:               Deny,
		`git bisect run npm publish`:                    Deny,
	} {
		for _, cx := range []Context{off, on} {
			if v := e.Check(Query{Kind: KindShell, Command: line, Context: cx}); v.Decision != want {
				t.Errorf("sandbox %v: %q: %s by %s (%s), want %s", cx.Sandboxed, line, v.Decision, v.Rule, v.Reason, want)
			}
		}
	}
}

// TestKotlinScriptOfTheWorkspace: kotlinc -script FILE runs a workspace
// script (kotlinscript.go, off29; polcorp13's `kotlinc -script
// scripts/check.main.kts`); off, a script whose annotations fetch code
// asks.
func TestKotlinScriptOfTheWorkspace(t *testing.T) {
	off := testEnv(t)
	on := off
	on.Sandboxed = true
	for f, text := range map[string]string{
		"scripts/check.main.kts": "println(\"ok\")\n",
		"scripts/deps.main.kts":  "@file:DependsOn(\"com.evil:x:1.0\")\nprintln(1)\n",
	} {
		p := filepath.Join(off.Workspace, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := Default()
	for _, c := range []struct {
		line    string
		on, off Decision
	}{
		{"kotlinc -script scripts/check.main.kts", Allow, Allow},
		{"kotlinc -script scripts/check.main.kts arg1", Allow, Allow},
		{"kotlinc -script scripts/deps.main.kts", Allow, Ask},
		{"echo x > scripts/a.kts && kotlinc -script scripts/check.main.kts", Allow, Ask},
		{"kotlinc -script /tmp/x.main.kts", Allow, Ask}, // the sandbox's private /tmp
		{"kotlinc -script ~/.x.main.kts", Ask, Ask},
		{"kotlinc -e 'println(1)'", Ask, Ask},
	} {
		for _, m := range []struct {
			cx   Context
			want Decision
		}{{on, c.on}, {off, c.off}} {
			if v := e.Check(Query{Kind: KindShell, Command: c.line, Context: m.cx}); v.Decision != m.want {
				t.Errorf("sandbox %v: %q: %s by %s (%s), want %s", m.cx.Sandboxed, c.line, v.Decision, v.Rule, v.Reason, m.want)
			}
		}
	}
}
