package codex

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// In place, Codex's own history for the project is kept as direct use
// keeps it (agentutil.KeptState): the session rollouts whose working
// directory is the project (sessions/YYYY/MM/DD/rollout-*.jsonl) and
// their lines of the prompt history (history.jsonl) are copied into the
// run's CODEX_HOME, and what the run added comes back after it, so `codex
// resume` finds the session next time. Its config, hooks and rules stay
// the run's own, read-only (ProtectedPaths). What comes back is Codex's
// own writing: CODEX_HOME is the run's agent state
// (sandbox.Profile.AgentState), which no command or hook it starts can
// write (internal/shellscope) and apply_patch cannot either (the policy
// denies a write outside the workspace, the sandbox one into the state);
// where that cannot be kept, the run's journal says so.

// maxRollouts bounds how many rollouts keepHistory looks into.
const maxRollouts = 20000

// keepHistory seeds the run's CODEX_HOME with the person's history for
// workspace and keeps what the run adds (WriteBackState).
func (a *Adapter) keepHistory(real, workspace string) error {
	provider := ""
	if a.plan != nil {
		provider = a.plan.ProviderID
	}
	k, err := keepHistoryAs(real, a.opts.Home, workspace, provider)
	if err != nil {
		return err
	}
	a.kept = k
	return nil
}

// KeepHistory seeds home (a run's own CODEX_HOME) with the history the
// person's real one keeps for workspace; the KeptState's WriteBack, after
// the run, copies back what it added. `sentinel sandbox run --agent codex`
// uses it for its per-run home too. Codex 0.171 lists `resume --last`
// from its state db once that exists, which holds no rollout copied back:
// the adapter's WriteBackState has Codex index them again (reindex.go);
// `sentinel sandbox run --agent codex` does not yet (there, `codex resume
// <id>` finds its session).
func KeepHistory(real, home, workspace string) (*agentutil.KeptState, error) {
	return keepHistoryAs(real, home, workspace, "")
}

// keepHistoryAs is KeepHistory for a run whose Codex uses provider: when
// that is Sentinel's own (ProviderID), the person's rollouts are seeded
// naming it (asRunUse), so that `resume --last` inside the run, which
// lists only its provider's sessions, finds the person's last session of
// the project; one the run resumed comes back named as theirs again
// (asDirectUse).
func keepHistoryAs(real, home, workspace, provider string) (*agentutil.KeptState, error) {
	k := agentutil.NewKeptState(real, home)
	k.Rewrite = asDirectUse
	if provider == ProviderID {
		k.SeedRewrite = asRunUse
	}
	k.Dir("sessions")
	ids := map[string]bool{}
	seen := 0
	root := filepath.Join(real, "sessions")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || !strings.HasSuffix(d.Name(), ".jsonl") {
			return nil
		}
		if seen++; seen > maxRollouts {
			return filepath.SkipAll
		}
		id, cwd := rolloutMeta(p)
		if cwd != workspace {
			return nil
		}
		if id != "" {
			ids[id] = true
		}
		rel, err := filepath.Rel(real, p)
		if err != nil {
			return nil
		}
		return k.SeedFile(rel)
	})
	if err != nil {
		return nil, err
	}
	if err := k.SeedLines("history.jsonl", func(line []byte) bool {
		var h struct {
			SessionID string `json:"session_id"`
		}
		return json.Unmarshal(line, &h) == nil && ids[h.SessionID]
	}); err != nil {
		return nil, err
	}
	return k, nil
}

// asDirectUse makes a rollout the run wrote name the provider the
// person's direct use names: the built-in "openai". Only where Sentinel
// wrote a provider of its own (ProviderID, for OPENAI_API_KEY /
// OPENAI_BASE_URL: NewPlan) does a rollout name it, and the person's own
// Codex lists for `resume --last` only the sessions of its own provider:
// without this, their direct resume never found the run's session. Only
// the JSON keys themselves match (inside a string value the quotes are
// escaped); nothing else changes.
func asDirectUse(rel string, data []byte) []byte {
	if !strings.HasSuffix(rel, ".jsonl") {
		return data
	}
	for _, key := range []string{"model_provider", "model_provider_id"} {
		data = bytes.ReplaceAll(data, []byte(`"`+key+`":"`+ProviderID+`"`), []byte(`"`+key+`":"`+openaiID+`"`))
	}
	return data
}

// asRunUse is asDirectUse's inverse, for seeding: a rollout of the
// person's direct use (the built-in "openai") names Sentinel's provider.
func asRunUse(rel string, data []byte) []byte {
	if !strings.HasSuffix(rel, ".jsonl") {
		return data
	}
	for _, key := range []string{"model_provider", "model_provider_id"} {
		data = bytes.ReplaceAll(data, []byte(`"`+key+`":"`+openaiID+`"`), []byte(`"`+key+`":"`+ProviderID+`"`))
	}
	return data
}

// sessionID is a Codex session id (a UUID): only such an id goes into a
// command line shown to the person.
var sessionID = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
})

// rolloutMeta reads a rollout's session id and working directory from its
// first line (the session_meta record; older rollouts carry them at the
// top level).
func rolloutMeta(path string) (id, cwd string) {
	f, err := os.Open(path)
	if err != nil {
		return "", ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	if !sc.Scan() {
		return "", ""
	}
	var m struct {
		ID      string `json:"id"`
		Cwd     string `json:"cwd"`
		Payload struct {
			ID  string `json:"id"`
			Cwd string `json:"cwd"`
		} `json:"payload"`
	}
	if json.Unmarshal(sc.Bytes(), &m) != nil {
		return "", ""
	}
	if m.Payload.Cwd != "" {
		return m.Payload.ID, m.Payload.Cwd
	}
	return m.ID, m.Cwd
}

// WriteBackState copies what the run added to Codex's history back into
// the person's; the notes say what was not kept.
func (a *Adapter) WriteBackState() []string {
	if a.kept == nil {
		return nil
	}
	return append(a.kept.WriteBack(), resumeNotes(a.kept)...)
}

// resumeNotes see that the person's Codex lists the sessions the run
// started: when their CODEX_HOME has Codex's state db, Codex lists `resume
// --last` (and its picker) from that index, which holds no session copied
// back, so Codex is told to index them again (reindexFrom); where that
// cannot be done, the exact `codex resume ID` line for each is named.
func resumeNotes(k *agentutil.KeptState) []string {
	dbs, _ := filepath.Glob(filepath.Join(k.Real, "state_*.sqlite"))
	if len(dbs) == 0 {
		return nil // Codex lists --last from the sessions folder
	}
	rels, ids := sessionsBack(k)
	if len(rels) == 0 {
		return nil
	}
	err := reindexFrom(k.Real, filepath.ToSlash(slices.Min(rels)))
	if err == nil {
		return nil
	}
	var notes []string
	for _, id := range ids {
		notes = append(notes, fmt.Sprintf("Codex's `resume --last` lists the sessions its index (%s) holds, and this run's session came back beside it, not into it (%s not re-indexed: %v): continue it with `codex resume %s` (or `codex exec resume %s`)", dbs[len(dbs)-1], stateDB, err, id, id))
	}
	return notes
}

// sessionsBack are the rollouts the run started (not seeded) that came
// back into the person's sessions folder, relative to it, and their ids.
func sessionsBack(k *agentutil.KeptState) (rels, ids []string) {
	_ = filepath.WalkDir(filepath.Join(k.Run, "sessions"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || !strings.HasSuffix(d.Name(), ".jsonl") {
			return nil
		}
		rel, err := filepath.Rel(k.Run, p)
		if err != nil || k.Seeded(rel) {
			return nil
		}
		id, _ := rolloutMeta(filepath.Join(k.Real, rel))
		if !sessionID().MatchString(id) {
			return nil // not kept, or not a session id Codex wrote
		}
		rels, ids = append(rels, rel), append(ids, id)
		return nil
	})
	return rels, ids
}
