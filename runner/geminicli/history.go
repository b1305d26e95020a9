package geminicli

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// In place, Gemini CLI's own history for the project is kept as direct use
// keeps it (agentutil.KeptState). Gemini keeps a project's chats,
// checkpoints and logs under ~/.gemini/tmp/<slug>/ (and its shell history
// under ~/.gemini/history/<slug>/), each with a .project_root file naming
// the project; it finds the slug again by that file. So the directories
// whose .project_root is the project are copied into the run's home
// before the run, and what the run added or changed comes back after it
// (`gemini --resume` finds the session next time). A project Gemini had
// never seen gets its new directory copied back only when the person has
// none of that name. Settings, hooks and extensions stay the run's own,
// read-only (prepareHome's protected paths). Gemini's checkpoint
// repository (history/<slug>/.git and the .gitconfig beside it) travels
// in but never back: Gemini runs git there with that repository's config
// (core.fsmonitor, hooks) on every checkpoint, so what the coder wrote in
// the run's copy would run on the host under the person's own gemini.
// A checkpoint the run made is then not restorable outside Sentinel.

// historyBases are the directories of ~/.gemini that hold per-project
// directories.
var historyBases = []string{"tmp", "history"}

// projectRootFile is the file naming a per-project directory's project.
const projectRootFile = ".project_root"

// keptHistory is a run's kept Gemini history.
type keptHistory struct {
	k         *agentutil.KeptState
	workspace string
}

// keepHistoryFor seeds runGemini (the run's $GEMINI_CLI_HOME/.gemini) with the
// person's realGemini (~/.gemini) directories for workspace.
func keepHistoryFor(realGemini, runGemini, workspace string) (*keptHistory, error) {
	k := agentutil.NewKeptState(realGemini, runGemini)
	for _, base := range historyBases {
		for _, slug := range projectDirs(filepath.Join(realGemini, base), workspace) {
			if err := k.SeedDir(filepath.Join(base, slug)); err != nil {
				return nil, err
			}
			holdShadowRepo(k, filepath.Join(base, slug))
		}
	}
	return &keptHistory{k: k, workspace: workspace}, nil
}

// projectDirs are the directories under base (not links; never "bin",
// Gemini's own tools) whose .project_root names workspace.
func projectDirs(base, workspace string) []string {
	ents, err := os.ReadDir(base)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() || e.Name() == "bin" {
			continue
		}
		marker := filepath.Join(base, e.Name(), projectRootFile)
		fi, err := os.Lstat(marker)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > 4096 {
			continue
		}
		b, err := os.ReadFile(marker)
		if err == nil && filepath.Clean(strings.TrimSpace(string(b))) == filepath.Clean(workspace) {
			out = append(out, e.Name())
		}
	}
	return out
}

// shadowRepoWhy says why a checkpoint repository's files stay out.
const shadowRepoWhy = "Gemini CLI runs git in its checkpoint repository with that repository's config and hooks, outside any sandbox when you run it yourself; a coder in the run could write them"

// holdShadowRepo keeps the checkpoint repository under dir (one project's
// directory of the kept history) from coming back.
func holdShadowRepo(k *agentutil.KeptState, dir string) {
	for _, name := range []string{".git", ".gitconfig", ".gitconfig_system_empty"} {
		k.Held(filepath.Join(dir, name), shadowRepoWhy)
	}
}

// writeBack copies back what the run added: the seeded directories, and a
// directory the run made for the project when the person has none of its
// name.
func (h *keptHistory) writeBack() []string {
	for _, base := range historyBases {
		for _, slug := range projectDirs(filepath.Join(h.k.Run, base), h.workspace) {
			rel := filepath.Join(base, slug)
			if _, err := os.Lstat(filepath.Join(h.k.Real, rel)); err == nil {
				continue // seeded (and named) already, or another project's
			}
			h.k.Dir(rel)
			holdShadowRepo(h.k, rel)
		}
	}
	return h.k.WriteBack()
}

// WriteBackState copies what the run added to Gemini's history back into
// the person's; the notes say what was not kept.
func (a *Adapter) WriteBackState() []string {
	if a.kept == nil {
		return nil
	}
	return a.kept.writeBack()
}
