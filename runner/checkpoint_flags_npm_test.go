package runner

import (
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// node_modules/.bin/jest is a link into the package (../jest/bin/jest.js):
// a coder trojaning it writes the package's file, and the report listed
// only "M node_modules/jest/bin/jest.js", unflagged, although npm test and
// npx run it, and require() loads every file of an installed package
// (h/ipatk12). A changed file of an installed package is flagged as one
// of site-packages is; node_modules' own bookkeeping is not.
func TestInPlaceFlagsAChangedFileOfAnInstalledNPMPackage(t *testing.T) {
	t.Parallel()
	old := &checkpoint.Entry{Kind: checkpoint.KindFile, Mode: 0o755, Hash: "old"}
	now := &checkpoint.Entry{Kind: checkpoint.KindFile, Mode: 0o755, Hash: "new"}
	changes := []checkpoint.Change{
		{Path: "node_modules/jest/bin/jest.js", What: checkpoint.Modified, Before: old, After: now},
		{Path: "web/node_modules/@scope/pkg/index.js", What: checkpoint.Modified, Before: old, After: now},
		{Path: "node_modules/.package-lock.json", What: checkpoint.Modified, Before: old, After: now},
		{Path: "src/node_modules.js", What: checkpoint.Modified, Before: old, After: now},
	}
	got := map[string]string{}
	for _, fl := range inPlaceFlags(changes, nil, nil) {
		got[fl.Path] = fl.Reason
	}
	for _, p := range []string{"node_modules/jest/bin/jest.js", "web/node_modules/@scope/pkg/index.js"} {
		if !strings.Contains(got[p], "installed npm package") {
			t.Errorf("%s: flagged %q; want it named a file of an installed npm package", p, got[p])
		}
	}
	for _, p := range []string{"node_modules/.package-lock.json", "src/node_modules.js"} {
		if r, ok := got[p]; ok {
			t.Errorf("%s: flagged %q; it is not a file of an installed package", p, r)
		}
	}
}
