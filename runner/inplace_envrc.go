package runner

import (
	"path"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/runlater"
	"github.com/sentinelhq/sentinel/runner/checkpoint"
)

// direnv asks for a new `direnv allow` only when an .envrc changes; a
// file it loads (source_env_if_exists local.sh, dotenv .env.dev, source_up,
// `. FILE`) runs on the next cd with no question, whatever its name. The
// person's .envrc files are read when the checkpoint is taken (before the
// coder acts), and a changed file one of them loads is flagged at the end
// like the .envrc itself.

// envrcLoads are, for each file under root one of before's .envrc files
// loads, that .envrc (both relative, slash-separated).
func envrcLoads(root string, before *checkpoint.Manifest) map[string]string {
	out := map[string]string{}
	for _, e := range before.Entries {
		if path.Base(e.Path) != ".envrc" || e.Kind != checkpoint.KindFile {
			continue
		}
		for _, p := range runlater.EnvrcSources(root, filepath.Join(root, filepath.FromSlash(e.Path))) {
			if rel, err := filepath.Rel(root, p); err == nil {
				out[filepath.ToSlash(rel)] = e.Path
			}
		}
	}
	return out
}

// envrcFlags flags each of files an .envrc loads.
func envrcFlags(files []string, loads map[string]string) []Flag {
	var out []Flag
	for _, f := range files {
		if envrc, ok := loads[f]; ok {
			out = append(out, Flag{f, "your " + envrc + " loads it: direnv runs it on cd with no new direnv allow"})
		}
	}
	return out
}

// report is withCheckpoint's report with the files the person's .envrc
// files load flagged too.
func (c *inPlaceCheckpoint) report(ch InPlaceChange, changes []checkpoint.Change, after *checkpoint.Manifest) InPlaceChange {
	ch = withCheckpoint(ch, changes, c.before, after)
	ch.Flagged = mergeFlags(ch.Flagged, envrcFlags(ch.Files, c.envrcLoads))
	return ch
}
