package hooks

import (
	"regexp"
	"slices"
	"testing"
)

// patchFiles finds what the pattern it replaced found (compiling a pattern
// on every hook's start costs more than the whole scan).
func FuzzPatchFilesAgreesWithThePattern(f *testing.F) {
	re := regexp.MustCompile(`(?m)^\*\*\* (?:Add|Update|Delete) File: (.+)$`)
	for _, s := range []string{"", "*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** End Patch",
		"*** Add File: a\n*** Delete File: b\r\n*** Update File: \n*** Move File: c", "*** Add File: x\xff\n", "x*** Add File: y", "*** Add File: "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, patch string) {
		var want []string
		for _, m := range re.FindAllStringSubmatch(patch, -1) {
			want = append(want, m[1])
		}
		if got := patchFiles(patch); !slices.Equal(got, want) {
			t.Fatalf("patchFiles(%q) = %q, the pattern finds %q", patch, got, want)
		}
	})
}
