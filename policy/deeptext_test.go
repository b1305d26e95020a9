package policy

import (
	"reflect"
	"runtime/debug"
	"strings"
	"testing"
)

// deepTexts are shell lines that nest deeper than the engine reads: the
// first three past the bracket/keyword count (the parser recursed once a
// level and overflowed its stack; 100,000 `(` took it ~15 s), the last two
// past the tree depth (they parse without a bracket, then every walk of
// the tree recursed once a level). Each killed whatever judged it.
func deepTexts() []string {
	return []string{
		strings.Repeat("(", 300_000),
		"ls " + strings.Repeat("$(", 150_000),
		strings.Repeat("if a; then ", 300) + "ls",
		strings.Repeat("ls && ", 300_000) + "ls",
		"ls $((1" + strings.Repeat("+1", 600_000) + "))",
	}
}

// lowStack makes a stack overflow show fast and cheaply: without the
// bounds these tests die with "goroutine stack exceeds" instead of
// spending seconds of CPU getting there. Not parallel: the limit is global.
func lowStack(t *testing.T) {
	old := debug.SetMaxStack(64 << 20)
	t.Cleanup(func() { debug.SetMaxStack(old) })
}

// Every caller of the engine gets an ask, with the reason, for text that
// nests deeper than it reads: the bound is in parseShell, the one parse.
func TestCheckAsksAboutTextNestedDeeperThanItReads(t *testing.T) {
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	lowStack(t)
	e := Default()
	for _, line := range deepTexts() {
		v := e.Check(Query{Kind: KindShell, Command: line, Context: testEnv(t)})
		if v.Decision != Ask || v.Rule != RuleShellTooDeep || !strings.Contains(v.Reason, "nests deeper than Sentinel reads") {
			t.Errorf("%.24q…: %s by %s (%.120s), want ask by %s saying it nests deeper than Sentinel reads", line, v.Decision, v.Rule, v.Reason, RuleShellTooDeep)
		}
		// Inside a payload too: the inner text is parsed by the same parseShell.
		inner := "bash -c " + shellQuote(line)
		if v := e.Check(Query{Kind: KindShell, Command: inner, Context: testEnv(t)}); v.Decision == Allow {
			t.Errorf("bash -c %.24q…: allowed by %s", line, v.Rule)
		}
	}
}

// A reader (ReadShell, Read) gets the refusal as its error, typed.
func TestReadShellRefusesTextNestedDeeperThanItReads(t *testing.T) {
	if sweptOutsideRace(t) { // sweep_outside_race_test.go
		return
	}
	lowStack(t)
	for _, line := range deepTexts() {
		if _, err := ReadShell(line); err == nil || !strings.Contains(err.Error(), "nests deeper than Sentinel reads") {
			t.Errorf("ReadShell(%.24q…) = %v, want the depth refusal", line, err)
		}
		if Read(line).TooDeep() == nil {
			t.Errorf("Read(%.24q…).TooDeep() = nil", line)
		}
	}
	// What people write still reads.
	for _, line := range []string{
		strings.Repeat("ls; ", 3000) + "ls",
		strings.Repeat("ls && ", 500) + "ls",
		"if [ -n \"$(ls)\" ]; then for f in *; do case $f in (a) echo \"${f}\";; esac; done; fi",
		"echo $((" + strings.Repeat("(", 100) + "1" + strings.Repeat(")", 100) + "))",
	} {
		if _, err := ReadShell(line); err != nil {
			t.Errorf("ReadShell(%.24q…): %v", line, err)
		}
	}
}

// syntaxPkg is a constant so that init does no work; it must still be the
// parser's package, or DeeperThan would measure nothing.
func TestSyntaxPkgIsTheParsersPackage(t *testing.T) {
	f, _, err := parseShell("ls")
	if err != nil {
		t.Fatal(err)
	}
	if !nodeField(reflect.ValueOf(f)) {
		t.Fatalf("syntaxPkg %q is not the package of %T", syntaxPkg, f)
	}
}
