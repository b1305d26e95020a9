package opencode

import (
	"fmt"
	"path/filepath"

	"github.com/sentinelhq/sentinel/internal/agentutil"
)

// kvFile is where opencode's TUI (1.18) keeps the choices made in it
// (its command palette's toggles), relative to its state dir
// ($XDG_STATE_HOME, else ~/.local/state).
const kvFile = "opencode/kv.json"

// displayKV are the TUI choices of the person's kv.json a run keeps:
// animations_enabled is their "Disable animations" (the spinners become
// a still "⋯"). It only changes how opencode draws its screen; every
// other entry (recent models, dialogs seen) stays the person's.
var displayKV = []string{"animations_enabled"}

// keepDisplay writes the run's kv.json (under its home) with the
// person's displayKV entries, read from home and getenv's XDG_STATE_HOME;
// nothing when they set none. A kv.json that does not parse is skipped,
// as opencode itself starts with an empty one then.
func keepDisplay(home, runHome string, getenv func(string) string) error {
	dir := personDir(home, getenv("XDG_STATE_HOME"), ".local/state")
	if dir == "" {
		return nil
	}
	kv, err := agentutil.ReadJSONC(filepath.Join(dir, kvFile))
	if err != nil {
		return nil
	}
	kept := map[string]any{}
	for _, k := range displayKV {
		if v, ok := kv[k]; ok {
			kept[k] = v
		}
	}
	if len(kept) == 0 {
		return nil
	}
	if err := agentutil.WriteJSON(filepath.Join(runHome, ".local/state", kvFile), kept); err != nil {
		return fmt.Errorf("opencode: write the run's display settings: %w", err)
	}
	return nil
}
