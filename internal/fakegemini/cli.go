package fakegemini

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// Settings is the $HOME/.gemini/settings.json that runs gemini-cli offline
// against this server: API-key auth (without it gemini -p fails with
// "Invalid auth method selected."), and no usage statistics (on by default:
// they resolve play.googleapis.com), telemetry, update checks or IDE
// integration; and, as a person who asked for a still screen would have
// it, no spinner (ui.showSpinner; a run keeps it), so a waiting gemini's
// TUI does not redraw.
var Settings = map[string]any{
	"ui":        map[string]any{"showSpinner": false},
	"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
	"privacy":   map[string]any{"usageStatisticsEnabled": false},
	"telemetry": map[string]any{"enabled": false},
	"general":   map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
	"ide":       map[string]any{"enabled": false},
}

// WriteSettings writes Settings to home/.gemini/settings.json.
func WriteSettings(home string) error {
	dir := filepath.Join(home, ".gemini")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("fakegemini: gemini settings dir: %w", err)
	}
	b, _ := json.MarshalIndent(Settings, "", "  ")
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), b, 0o600); err != nil {
		return fmt.Errorf("fakegemini: gemini settings: %w", err)
	}
	return nil
}

// Env is what gemini-cli needs in its environment to use this server with
// home as its HOME (prepared by WriteSettings): the base URL, any API key,
// and workspace trust (gemini -p refuses an untrusted folder otherwise);
// and GEMINI_CLI_NO_RELAUNCH, so that each gemini is one node process
// instead of a parent that starts a second one only to raise its heap
// limit (about 2 CPU-s a start; the relaunch is not what any test checks).
// Append it to a base environment; later entries win.
func (s *Server) Env(home string) []string {
	return []string{
		"HOME=" + home,
		"GEMINI_API_KEY=fakegemini-key",
		"GOOGLE_GEMINI_BASE_URL=" + s.URL,
		"GEMINI_CLI_TRUST_WORKSPACE=true",
		"GEMINI_CLI_NO_RELAUNCH=true",
		"NO_COLOR=1",
	}
}

// StartWithHome starts the server with script and makes a home whose
// settings point gemini-cli at it (WriteSettings); both go when the test
// ends.
func StartWithHome(t testing.TB, script Script) (*Server, string) {
	t.Helper()
	s, err := Start(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	home := t.TempDir()
	if err := WriteSettings(home); err != nil {
		t.Fatal(err)
	}
	return s, home
}
