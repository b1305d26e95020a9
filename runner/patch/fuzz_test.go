package patch

import (
	"slices"
	"testing"
)

// FuzzParseSelectAll: whatever Parse accepts, SelectAll writes back as a
// patch that parses to the same files. Run longer with
// go test ./runner/patch -fuzz FuzzParseSelectAll.
func FuzzParseSelectAll(f *testing.F) {
	for _, seed := range []string{
		"diff --git a/x b/x\nindex 1..2 100644\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n",
		"diff --git a/x b/x\nnew file mode 100755\nindex 0..1\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n+#!/bin/sh\n\\ No newline at end of file\n",
		"diff --git a/x b/x\nold mode 100644\nnew mode 100755\n",
		"diff --git a/p.png b/p.png\nindex 1..2 100644\nGIT binary patch\nliteral 3\nKcmZ>\n\nliteral 2\nJcm\n\n",
		"diff --git a/a b/b\nsimilarity index 90%\nrename from a\nrename to b\n",
		"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,3 +1,2 @@ f\n a\n-b\n c\n@@ -10 +9,2 @@\n z\n+y\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, diff []byte) {
		files, err := Parse(diff)
		if err != nil {
			return
		}
		again, err := Parse(SelectAll(files))
		if err != nil {
			t.Fatalf("SelectAll wrote a patch Parse refuses: %v\n%s", err, SelectAll(files))
		}
		if len(again) != len(files) {
			t.Fatalf("%d files became %d", len(files), len(again))
		}
		for i := range files {
			a, b := files[i], again[i]
			if a.Path != b.Path || a.Status != b.Status || a.Adds != b.Adds || a.Dels != b.Dels || len(a.Hunks) != len(b.Hunks) {
				t.Fatalf("file %d changed in the round trip:\n%+v\n%+v", i, a, b)
			}
			for j := range a.Hunks {
				if !slices.Equal(a.Hunks[j].Lines, b.Hunks[j].Lines) {
					t.Fatalf("hunk %d of %s changed: %q → %q", j, a.Path, a.Hunks[j].Lines, b.Hunks[j].Lines)
				}
			}
		}
	})
}
