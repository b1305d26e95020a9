package runner

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/internal/journal"
)

// A run in a folder that holds other projects (sentinel exec in ~/work,
// a shim there) can write their .sentinel/policy.toml and templates.toml:
// only the run's own .sentinel/ is read-only. In a repository those files
// are taken for the person's without a trust step, so the next run there
// would follow rules the coder wrote. markCoderWroteState records each such
// file the run changed (config.MarkCoderWrote): it is then used only once
// the person trusted it (placeStateFile, sentinel config trust).

// coderWroteState are the places under root and the names of their
// .sentinel/ files that changed among paths (relative to root), the run's
// own .sentinel/ left out (Sentinel writes it; the coder cannot).
func coderWroteState(root string, paths []string) (places, names []string) {
	for _, rel := range paths {
		rel = filepath.Clean(filepath.FromSlash(rel))
		name := filepath.Base(rel)
		dir := filepath.Dir(rel)
		var place string
		switch {
		case strings.EqualFold(name, stateDirName): // the directory itself: made, or made a link
			place = dir
		case slices.Contains(config.StateFiles, name) && name != "config.toml" && strings.EqualFold(filepath.Base(dir), stateDirName):
			place = filepath.Dir(dir)
		default:
			continue
		}
		if place == "." || strings.HasPrefix(place, "..") || filepath.IsAbs(place) {
			continue
		}
		for _, n := range []string{"policy.toml", "templates.toml"} {
			if n == name || !slices.Contains(config.StateFiles, name) {
				places, names = append(places, filepath.Join(root, place)), append(names, n)
			}
		}
	}
	return places, names
}

// markCoderWroteState marks the .sentinel/ files of other places under
// root that a run changed (coderWroteState), and says which it could not
// mark.
func markCoderWroteState(root string, ch InPlaceChange) (marked, failed []string) {
	paths := slices.Clone(ch.Files)
	for _, f := range ch.Flagged {
		paths = append(paths, f.Path)
	}
	places, names := coderWroteState(root, paths)
	for i, place := range places {
		file := config.StateFilePath(place, names[i])
		if slices.Contains(marked, file) || slices.Contains(failed, file) {
			continue
		}
		if err := config.MarkCoderWrote(place, names[i]); err != nil {
			failed = append(failed, file)
			continue
		}
		marked = append(marked, file)
	}
	return marked, failed
}

// tellCoderWroteState marks what the run wrote of other places' .sentinel/
// (markCoderWroteState) and says so, one line each.
func (r *endStage) tellCoderWroteState(ch InPlaceChange) {
	marked, failed := markCoderWroteState(r.opts.Project.Root, ch)
	for _, f := range marked {
		r.emit(journal.System, KindNotice, "in place: the coder wrote "+f+"; runs there use it only once you trust it: sentinel config trust --project "+strconv.Quote(filepath.Dir(filepath.Dir(f))), nil)
	}
	for _, f := range failed {
		r.emit(journal.System, KindError, "in place: the coder wrote "+f+" and Sentinel could not record that it did: a run there would follow it; look at it or delete it", nil)
	}
}
