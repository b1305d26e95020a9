package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// In place, Claude Code's own history for the project is kept as direct
// use keeps it (agentutil.KeptState): its session transcripts
// (projects/<the project's path, dashed>/), the todos, file checkpoints and
// session environments of those sessions, and the project's lines of the
// prompt history (history.jsonl) are copied into the run's config dir, and
// what the run added comes back after it, so `claude --continue` and
// `--resume` find the session next time, in Sentinel or not. What comes
// back is Claude Code's own writing: the config dir is the run's agent
// state (sandbox.Profile.AgentState), which no command it starts can
// write (internal/shellscope), hooks included (each runs through a shell,
// as a command does), and which its file tools cannot write either (the
// policy denies a write outside the workspace, the sandbox one into the
// state). Where the kernel or the layout cannot keep the commands out,
// the run's journal says the transcripts come back as before. Session
// environments and file checkpoints travel in but never back (/rewind
// writes a checkpoint into whatever path the transcript names): Claude Code runs the scripts
// there ahead of each Bash command, so the coder's would run on the host
// under the person's own claude. The project's auto memory (read as
// instructions) comes back and is named in the run's notes. Its settings,
// hooks, commands and login stay the run's own copies, read-only where
// they matter (ProtectedPaths).

var nonAlnum = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-zA-Z0-9]`) })

// ProjectKey is the directory name Claude Code keeps a project's sessions
// under in projects/: its path with every other character than a letter
// or digit made a dash.
func ProjectKey(path string) string { return nonAlnum().ReplaceAllString(path, "-") }

// keepHistory seeds the run's config dir with the person's history for
// workspace and keeps what the run adds (WriteBackState).
func (a *Adapter) keepHistory(real, workspace string) error {
	k, err := KeepHistory(real, a.opts.ConfigDir, workspace)
	if err != nil {
		return err
	}
	a.kept = k
	return nil
}

// KeepHistory seeds configDir (a run's own Claude Code config dir) with
// the history the person's real one keeps for workspace; the KeptState's
// WriteBack, after the run, copies back what it added. `sentinel sandbox
// run --agent claude` uses it for its per-run home too.
func KeepHistory(real, configDir, workspace string) (*agentutil.KeptState, error) {
	k := agentutil.NewKeptState(real, configDir)
	proj := filepath.Join("projects", ProjectKey(workspace))
	if err := k.SeedDir(proj); err != nil {
		return nil, err
	}
	entries, _ := os.ReadDir(filepath.Join(real, proj))
	for _, e := range entries {
		sid, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || !e.Type().IsRegular() || sid == "" || strings.ContainsAny(sid, "*?[\\") {
			continue
		}
		todos, _ := filepath.Glob(filepath.Join(real, "todos", sid+"-*.json"))
		for _, t := range todos {
			if err := k.SeedFile(filepath.Join("todos", filepath.Base(t))); err != nil {
				return nil, err
			}
		}
		for _, d := range []string{"file-history", "session-env"} {
			if err := k.SeedDir(filepath.Join(d, sid)); err != nil {
				return nil, err
			}
		}
	}
	for _, d := range []string{"todos", "file-history", "session-env"} {
		k.Dir(d)
	}
	// Claude Code runs the scripts in session-env/<session>/ ahead of each
	// Bash command of that session: the coder's would run on the host in
	// the person's next `claude --continue`. They stay held with the
	// commands kept out: what writes them is hooks (CLAUDE_ENV_FILE), and
	// hooks are commands, so in place nothing of the run writes them that
	// the person's own claude should run; and on a kernel without the
	// scope a command could.
	k.Held("session-env", "Claude Code runs what is there ahead of every Bash command of that session, outside any sandbox when you run it yourself; a coder in the run could write it")
	// Its file checkpoints are what /rewind writes back, into the paths the
	// session's transcript names (the coder writes both): wherever they
	// are, outside any sandbox in the person's own claude.
	k.Held("file-history", "Claude Code's /rewind writes these into the files the session's transcript names, wherever they are, outside any sandbox when you run it yourself; a coder in the run could write both (sentinel undo puts back what the run changed)")
	// Its auto memory is read as instructions by every session there.
	k.Told(filepath.Join(proj, "memory"), "Claude Code reads it as instructions in every session in this project, also when you run it yourself; look at what the run wrote")
	if err := k.SeedLines("history.jsonl", func(line []byte) bool {
		var h struct{ Project string }
		return json.Unmarshal(line, &h) == nil && h.Project == workspace
	}); err != nil {
		return nil, err
	}
	return k, nil
}

// WriteBackState copies what the run added to Claude Code's history back
// into the person's (after the run, before its config dir is removed);
// the notes say what was not kept.
func (a *Adapter) WriteBackState() []string {
	if a.kept == nil {
		return nil
	}
	return a.kept.WriteBack()
}

// PersonalDir is the person's own Claude Code config dir
// ($CLAUDE_CONFIG_DIR, else ~/.claude).
func PersonalDir(home string) string { return personalDir(home) }
