package policy

import (
	"slices"
	"sort"
	"strings"
	"testing"
)

// trickyShell are lines where readers of `sh -c` have disagreed: each names
// the program the exported reader sees for its first command and the
// script it finds there ("" when none).
var trickyShell = []struct {
	name, line string
	program    []string
	script     string
}{
	{"plain -c", `sh -c 'make test'`, []string{"sh", "-c", "make test"}, "make test"},
	{"login -lc", `bash -lc "go test ./..."`, []string{"bash", "-lc", "go test ./..."}, "go test ./..."},
	{"cluster -ec", `sh -ec 'cd x && make'`, []string{"sh", "-ec", "cd x && make"}, "cd x && make"},
	{"system path", `/bin/sh -c ls`, []string{"/bin/sh", "-c", "ls"}, "ls"},
	{"dotted system path", `/usr/bin/../bin/bash -c ls`, []string{"/usr/bin/../bin/bash", "-c", "ls"}, "ls"},
	{"extra positional args", `sh -c 'echo "$1"' sh a b`, []string{"sh", "-c", `echo "$1"`, "sh", "a", "b"}, `echo "$1"`},
	{"env -i", `env -i sh -c 'rm -rf build'`, []string{"sh", "-c", "rm -rf build"}, "rm -rf build"},
	{"env assigns", `env -u HOME A=1 bash -c pwd`, []string{"bash", "-c", "pwd"}, "pwd"},
	{"nested wrappers", `nice -n 5 timeout -s KILL 10 nohup sh -c 'go vet'`, []string{"sh", "-c", "go vet"}, "go vet"},
	{"command and exec", `command exec sh -c 'ls'`, []string{"sh", "-c", "ls"}, "ls"},
	{"env -S", `env -S 'sh -c ls'`, []string{"sh", "-c", "ls"}, "ls"},
	{"nested sh -c", `sh -c "sh -c 'rm -rf x'"`, []string{"sh", "-c", "sh -c 'rm -rf x'"}, "sh -c 'rm -rf x'"},
	{"heredoc script", "bash <<'EOF'\nrm -rf x\nEOF", []string{"bash"}, "rm -rf x\n"},
	{"heredoc with -s", "sh -s <<EOF\nls\nEOF", []string{"sh", "-s"}, "ls\n"},
	{"here-string", `bash <<< 'ls -la'`, []string{"bash"}, "ls -la\n"},
	{"zsh payload", `zsh -c 'print hi'`, []string{"zsh", "-c", "print hi"}, "print hi"},
	// Not a script, for engine and reader alike.
	{"script file then -c", `bash run.sh -c 'rm -rf /'`, []string{"bash", "run.sh", "-c", "rm -rf /"}, ""},
	{"dynamic script", `sh -c "$CMD"`, []string{"sh", "-c", ""}, ""},
	{"downloaded script", `sh -c "$(curl -s x)"`, []string{"sh", "-c", ""}, ""},
	{"-c without script", `sh -c`, []string{"sh", "-c"}, ""},
	{"sudo hides it", `sudo sh -c 'rm -rf /'`, nil, ""},
	{"nsenter hides it", `nsenter -t 1 sh -c id`, nil, ""},
	{"unknown env option", `env --frobnicate sh -c ls`, nil, ""},
	{"command -v looks up", `command -v sh`, nil, ""},
	{"workspace bash", `./bash -c ls`, []string{"./bash", "-c", "ls"}, ""},
	{"python -c", `python3 -c 'print(1)'`, []string{"python3", "-c", "print(1)"}, ""},
	{"heredoc fed to a script", "bash run.sh <<EOF\nls\nEOF", []string{"bash", "run.sh"}, ""},
	{"env -S drops the input", "env -S 'bash' <<EOF\nls\nEOF", []string{"bash"}, ""},
}

func TestReaderSeesTheEnginesProgramAndScript(t *testing.T) {
	for _, tc := range trickyShell {
		t.Run(tc.name, func(t *testing.T) {
			l, err := ReadShell(tc.line)
			if err != nil {
				t.Fatal(err)
			}
			cmds := l.Commands()
			if len(cmds) == 0 {
				t.Fatalf("no command in %q", tc.line)
			}
			if got := cmds[0].Program(); !slices.Equal(got, tc.program) {
				t.Errorf("Program() = %q, want %q", got, tc.program)
			}
			got, ok := cmds[0].Script()
			if got != tc.script || ok != (tc.script != "") {
				t.Errorf("Script() = %q, %v; want %q", got, ok, tc.script)
			}
			checkAgrees(t, tc.line)
		})
	}
}

func TestReaderFailsClosedOnWhatItCannotParse(t *testing.T) {
	for _, line := range []string{"if (", "echo 'open", "ls\x00rm -rf /", "$(", "a=("} {
		if _, err := ReadShell(line); err == nil {
			t.Errorf("ReadShell(%q) read it", line)
		}
	}
	// A script that does not parse: no commands to read, and the engine asks.
	l, err := ReadShell(`sh -c 'if ('`)
	if err != nil {
		t.Fatal(err)
	}
	s, ok := l.Commands()[0].Script()
	if !ok {
		t.Fatal("no script")
	}
	if _, err := ReadShell(s); err == nil {
		t.Errorf("the script %q read", s)
	}
	checkAgrees(t, `sh -c 'if ('`)
}

// TestReaderWordShapes: the readers this one replaced disagreed on words
// that are not their text less quotes; each case names the old readings.
// Dynamic (value unknown) and Escaped (value known, text differs) let each
// caller keep the stricter one.
func TestReaderWordShapes(t *testing.T) {
	for _, tc := range []struct {
		line             string
		dynamic, escaped bool
	}{
		{`go test ./...`, false, false},
		{`git commit -m 'a b'`, false, false},
		{`echo "a b" 'c\d'`, false, false},
		{`git log HEAD~1`, false, false},
		{`echo a\ b`, false, true},         // approvals unescaped it, codex refused it
		{`echo "a\"b"`, false, true},       // approvals kept the backslash, the engine drops it
		{`echo $'\x41'`, false, true},      // approvals: dynamic; the engine decodes it
		{`echo $"x"`, false, true},         // locale translation
		{`ls *.go`, true, false},           // approvals: literal text; the engine: a pattern
		{`echo {a,b}`, true, false},        // brace expansion
		{`cat ~/.ssh/id_rsa`, true, false}, // approvals: literal "~"; the engine: the home directory
		{`dd of=~/x`, true, false},         // bash expands ~ after NAME=
		{`FOO=1 make`, true, false},        // an assignment prefix
		{`echo $(date)`, true, false},
		{`echo "$HOME"`, true, false},
	} {
		l, err := ReadShell(tc.line)
		if err != nil {
			t.Fatal(err)
		}
		c := l.Commands()[0]
		if c.Dynamic != tc.dynamic || c.Escaped != tc.escaped {
			t.Errorf("%q: Dynamic, Escaped = %v, %v; want %v, %v", tc.line, c.Dynamic, c.Escaped, tc.dynamic, tc.escaped)
		}
	}
}

func TestReaderStatements(t *testing.T) {
	l, err := ReadShell("cd x && go test ./... | tail; echo $(rm y) > out &")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Stmts) != 2 || l.Stmts[0].Op != "&&" || l.Stmts[0].Y.Op != "|" || !l.Stmts[1].Async {
		t.Fatalf("unexpected statements: %+v", l.Stmts)
	}
	if got := l.Stmts[0].Y.Text; got != "go test ./... | tail" {
		t.Errorf("pipe text %q", got)
	}
	var texts []string
	for _, c := range l.Commands() {
		texts = append(texts, c.Text)
	}
	want := []string{"cd x", "go test ./...", "tail", "echo $(rm y) > out", "rm y"}
	if !slices.Equal(texts, want) {
		t.Errorf("Commands = %q, want %q", texts, want)
	}
	if r := l.Commands()[3].Redirects; !slices.Equal(r, []string{"out"}) {
		t.Errorf("Redirects = %q", r)
	}
}

func TestShellScriptOfWords(t *testing.T) {
	for _, tc := range []struct {
		argv   []string
		script string
	}{
		{[]string{"bash", "-lc", "make test"}, "make test"},
		{[]string{"/bin/sh", "-c", "ls *.go"}, "ls *.go"}, // a word, not a pattern: no shell expands it
		{[]string{"env", "-i", "sh", "-ec", "ls"}, "ls"},
		{[]string{"./bash", "-c", "ls"}, ""},
		{[]string{"/tmp/x/bash", "-lc", "ls"}, ""},
		{[]string{"/usr/local/bin/bash", "-lc", "ls"}, ""},
		{[]string{"bash", "x.sh", "-c", "ls"}, ""},
		{[]string{"bash"}, ""},
	} {
		got, ok := ShellScript(tc.argv)
		if got != tc.script || ok != (tc.script != "") {
			t.Errorf("ShellScript(%q) = %q, %v; want %q", tc.argv, got, ok, tc.script)
		}
	}
}

func TestUnwrap(t *testing.T) {
	for _, tc := range []struct{ in, want []string }{
		{[]string{"env", "CGO_ENABLED=0", "go", "vet"}, []string{"go", "vet"}},
		{[]string{"env", "-u", "HOME", "go", "test"}, []string{"go", "test"}},
		{[]string{"timeout", "60", "make", "test"}, []string{"make", "test"}},
		{[]string{"/usr/bin/time", "-o", "t.txt", "pytest"}, []string{"pytest"}},
		{[]string{"sudo", "make"}, nil},
		{[]string{"./test.sh"}, []string{"./test.sh"}},
	} {
		if got := Unwrap(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("Unwrap(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzReaderAgreesWithEngine: for any line, the commands the exported
// reader finds (top level, and in each script it finds) are the commands
// the engine judges, and the program it names is the argv the engine
// judges.
func FuzzReaderAgreesWithEngine(f *testing.F) {
	for _, tc := range trickyShell {
		f.Add(tc.line)
	}
	for _, name := range []string{"adversarial.txt", "everyday.txt", "agents_adversarial.txt", "agents_everyday.txt"} {
		for _, c := range readCorpus(f, name) {
			f.Add(c.cmd)
		}
	}
	f.Fuzz(func(t *testing.T, line string) {
		checkAgrees(t, line)
	})
}

func endsWith(s, suffix []string) bool {
	return len(suffix) <= len(s) && slices.Equal(s[len(s)-len(suffix):], suffix)
}

// readerFollows reports the ways the engine reaches a command that the reader
// also follows; a line where the engine follows another way (eval, find
// -exec, a written file, …) is compared no further.
func readerFollows(via string) bool {
	switch via {
	case "", "redirect", "function", "test", "declare", "arith", "for", "coproc", "env -S":
		return true
	}
	return strings.HasSuffix(via, " -c") || strings.HasSuffix(via, " <<")
}

func checkAgrees(t *testing.T, line string) {
	t.Helper()
	ctx := Context{Workspace: "/nonexistent/ws", Cwd: "/nonexistent/ws"}
	v := Default().Check(Query{Kind: KindShell, Command: line, Context: ctx})
	l, err := ReadShell(line)
	if err != nil {
		if v.Decision == Allow {
			t.Fatalf("the reader cannot parse %q but the engine allows it", line)
		}
		return
	}
	engine := map[string][]string{}
	for _, p := range v.Parts {
		if !readerFollows(p.Via) || p.Rule == RuleShellTooDeep {
			return
		}
		if p.Rule == RuleShellEmpty {
			return // blank to the engine (only spaces or comments): it asks
		}
		if p.Via == "" || strings.HasSuffix(p.Via, " -c") || strings.HasSuffix(p.Via, " <<") {
			engine[p.Via+"\x00"+strings.TrimSpace(strings.TrimRight(p.Text, ";& \n"))] = p.Argv
		}
	}
	reader := map[string]*Command{}
	unread := map[string]bool{} // scripts that do not parse: the engine's part is the script itself
	var walk func(l *Line, via string, depth int) bool
	walk = func(l *Line, via string, depth int) bool {
		ok := true
		l.Walk(func(s *Stmt) bool {
			if s.Cmd == nil {
				return true
			}
			reader[via+"\x00"+strings.TrimSpace(strings.TrimRight(s.Text, ";& \n"))] = s.Cmd
			text, sv, has := s.Cmd.script()
			if !has {
				return true
			}
			if depth >= maxDepth {
				ok = false
				return false
			}
			sub, err := ReadShell(text)
			if err != nil {
				unread[sv+"\x00"+strings.TrimSpace(strings.TrimRight(text, ";& \n"))] = true
				return true
			}
			ok = walk(sub, sv, depth+1) && ok
			return true
		})
		return ok
	}
	if !walk(l, "", 0) {
		return
	}
	var onlyEngine, onlyReader []string
	for k := range engine {
		if reader[k] == nil && !unread[k] {
			onlyEngine = append(onlyEngine, k)
		}
	}
	for k := range reader {
		if _, ok := engine[k]; !ok {
			onlyReader = append(onlyReader, k)
		}
	}
	if len(onlyEngine)+len(onlyReader) > 0 {
		sort.Strings(onlyEngine)
		sort.Strings(onlyReader)
		t.Fatalf("%q: the engine judges %q the reader does not see; the reader sees %q the engine does not judge", line, onlyEngine, onlyReader)
	}
	for k, c := range reader {
		argv := engine[k]
		if c.Dynamic || argv == nil || len(c.Args) == 0 {
			continue
		}
		prog, split := programOf(c.words)
		if prog == nil || split {
			continue // the engine keeps the whole argv and judges what env -S spells as its own part
		}
		// The engine strips wrappers from Part.Argv but keeps a runner's
		// own words (uv run pytest): the program ends it, and it ends the
		// words as written.
		if !endsWith(argv, vals(prog)) || !endsWith(c.Args, argv) {
			t.Fatalf("%q: the reader's program %q, the engine's argv %q", line, vals(prog), argv)
		}
	}
}
