package supervisor

import (
	"fmt"
	"strings"
	"testing"
)

func filePatch(name string, lines int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%d @@\n", name, name, name, lines)
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&b, "+line %d of %s\n", i, name)
	}
	return b.String()
}

func TestReviewDiffWholeWhenItFits(t *testing.T) {
	patch := filePatch("a.go", 3) + filePatch("b.go", 2)
	got := ReviewDiff([]byte(patch), 10000)
	if got != patch {
		t.Fatalf("a diff that fits is not shown whole:\n%s", got)
	}
}

func TestReviewDiffCutsFairlyAndSaysSo(t *testing.T) {
	patch := filePatch("small.go", 2) + filePatch("huge.go", 5000) + filePatch("big.go", 3000)
	got := ReviewDiff([]byte(patch), 6000)
	if len(got) > 6600 {
		t.Errorf("the cut diff is %d bytes, over its budget", len(got))
	}
	for _, want := range []string{
		"+line 1 of small.go",                     // small files whole
		"+line 0 of huge.go",                      // every large file has its head
		"+line 0 of big.go",                       //
		"lines shown]",                            // each cut is said where it is
		"NOTE: this diff is not the whole change", // and at the end
		"huge.go, big.go",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the cut diff lacks %q", want)
		}
	}
	if strings.Contains(got, "+line 4999 of huge.go") {
		t.Error("the tail of the huge file is there: nothing was cut")
	}
}

func TestReviewDiffLeavesBinaryOutAndSpellsHiddenText(t *testing.T) {
	patch := "diff --git a/img.png b/img.png\nnew file mode 100644\nGIT binary patch\nliteral 12\nTcmZQzU|?c^VZ6Wq1ONgg\n\nliteral 0\nHcmV?d00001\n\n" +
		"diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-a\n+b\x1b[2J\u202e\n"
	got := ReviewDiff([]byte(patch), 10000)
	if strings.Contains(got, "TcmZQzU") {
		t.Errorf("the binary payload reached the prompt:\n%s", got)
	}
	if !strings.Contains(got, "(binary content left out)") || !strings.Contains(got, "img.png (binary)") {
		t.Errorf("the binary file is not named as left out:\n%s", got)
	}
	if strings.ContainsAny(got, "\x1b\u202e") {
		t.Errorf("hidden characters reached the prompt: %q", got)
	}
}

func TestReviewDiffOfNothing(t *testing.T) {
	if got := ReviewDiff(nil, 0); got != "" {
		t.Fatalf("ReviewDiff(nil) = %q", got)
	}
}

// A file that usually holds secrets is named, never shown: a secret the
// coder wrote into the workspace does not reach the reviewing model.
func TestReviewDiffLeavesSecretFilesOut(t *testing.T) {
	patch := filePatch(".env", 1) + "+API_KEY=sk-live-0123456789\n" + filePatch("main.go", 1)
	got := ReviewDiff([]byte(patch), 10000)
	if strings.Contains(got, "sk-live-0123456789") || strings.Contains(got, "line 0 of .env") {
		t.Fatalf("a secret file's content reached the review prompt:\n%s", got)
	}
	for _, want := range []string{"diff --git a/.env b/.env", "content left out", ".env (usually holds secrets)", "+line 0 of main.go"} {
		if !strings.Contains(got, want) {
			t.Errorf("the diff lacks %q:\n%s", want, got)
		}
	}
}
