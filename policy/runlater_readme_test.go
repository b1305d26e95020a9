package policy

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var updateReadme = flag.Bool("update", false, "rewrite README.md's list of files that run code later from runlater.toml")

const (
	readmeBegin = "<!-- runlater:begin — generated from policy/runlater.toml: go test ./policy/ -run TestReadmeListsRunLater -update -->\n"
	readmeEnd   = "<!-- runlater:end -->\n"
)

// README.md lists exactly the entries of runlater.toml, so what a person
// reads is what Sentinel flags and holds.
func TestReadmeListsRunLater(t *testing.T) {
	const readme = "../README.md"
	b, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	i, j := strings.Index(text, readmeBegin), strings.Index(text, readmeEnd)
	if i < 0 || j < i {
		t.Fatalf("README.md has no %q … %q section", strings.TrimSpace(readmeBegin), strings.TrimSpace(readmeEnd))
	}
	want := text[:i] + readmeBegin + renderRunLaterList(RunLaterEntries()) + text[j:]
	if *updateReadme {
		if err := os.WriteFile(readme, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want != text {
		t.Errorf("README.md's list of files that run code later differs from policy/runlater.toml; run\n\tgo test ./policy/ -run TestReadmeListsRunLater -update")
	}
}

// renderRunLaterList is the README's list: one paragraph per class, the
// patterns without their leading "**/" (names match at any depth).
func renderRunLaterList(list []RunLaterEntry) string {
	heads := map[RunLaterClass]string{
		RunsUnasked:       "**Run without being asked** (editor, direnv, agent settings, git hooks, CI): the coder's writes are person-only — a supervisor model may never approve them — and review and report flag them:",
		RunsOnBuild:       "**Run when you build, test or install**: review and report flag them; the policy does not block them:",
		AgentInstructions: "**Agent instructions**: review and report flag them; the policy does not block them:",
		ReadOnCd:          "**Read by your version manager when you cd** (the interpreter it picks or fetches): review and report flag them; the policy does not block them:",
	}
	var b strings.Builder
	for _, class := range []RunLaterClass{RunsUnasked, RunsOnBuild, AgentInstructions, ReadOnCd} {
		var names []string
		for _, e := range list {
			if e.Class == class {
				names = append(names, "`"+strings.TrimPrefix(e.Pattern, "**/")+"`")
			}
		}
		b.WriteString("\n" + heads[class] + "\n")
		line := ""
		for k, n := range names {
			if k < len(names)-1 {
				n += ","
			}
			if line != "" && len(line)+1+len(n) > 80 {
				b.WriteString(line + "\n")
				line = ""
			}
			if line != "" {
				line += " "
			}
			line += n
		}
		b.WriteString(line + "\n")
	}
	return b.String() + "\n"
}
