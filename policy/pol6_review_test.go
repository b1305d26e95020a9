package policy

import "testing"

// pol6: holes found reviewing pol4's and pol5's allow classes as an
// attacker (issue 32). Each class with the spellings that were allowed and
// the everyday neighbours that must stay allowed.

// find evaluates its expression left to right: a deleting action before
// the -name test runs on every file (find . -delete -name '*.pyc' deletes
// the workspace). Only a delete that comes after an artefact name is
// cleaning (findartefacts.go).
func TestFindDeleteBeforeItsNameTest(t *testing.T) {
	checkModes(t, []modeCase{
		{"find . -delete -name '*.pyc'", "!allow", "!allow"},
		{"find . -exec rm -rf {} + -name __pycache__", "!allow", "!allow"},
		{"find src -type f -delete -name '*.o'", "!allow", "!allow"},
		{"find . -depth -delete -name '*.pyc'", "!allow", "!allow"},
		{"find . -name '*.pyc' -delete -name '*.o'", "allow", "allow"},
		{"find . -name '*.pyc' -delete", "allow", "allow"},
		{"find . -type d -name __pycache__ -exec rm -rf {} +", "allow", "allow"},
	})
}

// A for loop's word is bound into its body as one word, but an unquoted
// $x splits on blanks and globs as bash does: a word with a blank or a
// quoted glob character is not a constant of the body (subst.go
// forBindings). `for T in '5 rm -rf /'; do timeout $T go test; done` runs
// rm -rf /; `for x in 'src /'; do rm -rf $x; done` deletes src.
func TestForWordsThatSplitAreNotConstants(t *testing.T) {
	checkModes(t, []modeCase{
		{"for T in '5 rm -rf /'; do timeout $T go test ./...; done", "!allow", "!allow"},
		{"for x in 'src ~/.ssh'; do rm -rf $x; done", "!allow", "!allow"},
		{"for x in '-o /etc/x'; do go build $x; done", "!allow", "!allow"},
		{"for x in \"src\tmain.go\"; do rm -rf $x; done", "!allow", "!allow"},
		{"for x in 'src'*; do rm -rf $x; done", "!allow", "!allow"},
		{"for x in 'a b'*; do rm -rf $x; done", "!allow", "!allow"},
		{"for f in src/a.go main.go; do gofmt -l $f; done", "allow", "allow"},
		{"for f in src/*.go; do gofmt -l \"$f\"; done", "allow", "allow"},
		{"for p in 8080 3000; do curl -s localhost:$p/health; done", "allow", "allow"}, // hostloopback.go
	})
}

// pylint --init-hook runs the Python written on the line before it lints,
// and --load-plugins imports modules: code, not configuration, in the
// plain and the python -m spellings (handlers_build.go codeHookOption).
func TestLinterOptionsThatRunCode(t *testing.T) {
	checkModes(t, []modeCase{
		{`pylint --init-hook='import os; os.system("rm -rf ~")' src`, "!allow", "!allow"},
		{`pylint --init-hook 'import os' src`, "!allow", "!allow"},
		{`pylint --init-h='import os' src`, "!allow", "!allow"},
		{`pylint --rcfile=.pylintrc --init-hook='import os' src`, "!allow", "!allow"},
		{`python -m pylint --init-hook='import os' src`, "!allow", "!allow"},
		{`python3 -m pylint --load-plugins=evil src`, "!allow", "!allow"},
		{`pylint --load-plugins=evil src`, "!allow", "!allow"},
		{`pylint src`, "allow", "allow"},
		{`pylint --rcfile=.pylintrc src`, "allow", "allow"},
		{`python -m pylint src`, "allow", "allow"},
		{`python -m pytest --import-mode=importlib`, "allow", "allow"},
	})
}

// mktemp -t/--tmpdir puts its template under the temp dir, and GNU mktemp
// takes a template with ../ there (mktemp --tmpdir ../../etc/xXXX makes
// /etc/xNNN): such a template is judged as a write of where it lands.
func TestMktempTemplateClimbingOutOfTemp(t *testing.T) {
	checkModes(t, []modeCase{
		{"mktemp --tmpdir ../../etc/xXXX", "deny", "deny"},
		{"mktemp -d --tmpdir ../../home/u/xXXX", "deny", "deny"},
		{"mktemp -t ../../etc/xXXX", "deny", "deny"},
		{"mktemp -d -t tmp.XXXXXX", "allow", "ask"},
		{"mktemp --tmpdir sub/xXXX", "allow", "deny"}, // as mktemp /tmp/foo.XXXX
	})
}
