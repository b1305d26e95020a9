package runner

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/sentinelhq/sentinel/internal/journal"
)

// recoverScratchObjects deals with the scratch object dir of in-place run
// id whose sentinel died (kill -9, a crash, a closed terminal) before the
// end of the run moved its objects in. The coder's commits may already be
// on the person's branch while their objects sit only in the scratch dir:
// left there, the repository would be missing the objects its own refs
// point at. So each object is proven against its name, exactly as at the
// end of a run (migrateObjects), and moved in; one that fails is
// quarantined and named; the scratch dir is then removed. The dir's path
// is recomputed from the project and the run id (never read from a record
// the coder could write). It returns the lines for the run's journal.
func recoverScratchObjects(ctx context.Context, p *Project, id string) []string {
	if p.GitDir == "" {
		return nil
	}
	shadow, err := shadowDir(p, id)
	if err != nil {
		return nil
	}
	g := &gitGuard{p: p, common: resolvedPath(p.commonDir()), Objects: shadow + ".objects", Quarantine: shadow + ".quarantine"}
	st, err := os.Lstat(g.Objects)
	if err != nil || !st.IsDir() {
		return nil
	}
	refused, err := g.migrateObjects(ctx)
	var out []string
	if err != nil {
		out = append(out, fmt.Sprintf("in place: the coder's new git objects of the ended run could not all be moved into your repository (%v); they are in %s — copy them into %s/objects before you run git gc", err, g.Objects, g.common))
	} else {
		out = append(out, "in place: the coder's new git objects, left outside your repository when the run ended early, were checked and moved in")
	}
	if len(refused) > 0 {
		out = append(out, fmt.Sprintf("in place: %d of them did not match their names and were kept out (quarantined in %s):\n%s", len(refused), g.Quarantine, strings.Join(refused, "\n")))
	}
	return out
}

// recoverDeadInPlaceObjects journals recoverScratchObjects for run m.
func recoverDeadInPlaceObjects(ctx context.Context, p *Project, dir string, m *Meta) {
	for _, line := range recoverScratchObjects(ctx, p, m.ID) {
		appendEvent(dir, m.ID, journal.System, KindNotice, line, nil)
	}
}
