package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNotifyTerminalSettings: [notify] bell, title and terminal are read
// from the person's config, and an unknown terminal notification is a
// one-line error naming the file, line and the values that work.
func TestNotifyTerminalSettings(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.toml")
	os.WriteFile(good, []byte("[notify]\nbell = false\ntitle = false\nterminal = \"osc777\"\n"), 0o600)
	c, err := LoadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	if c.Notify.Bell == nil || *c.Notify.Bell || c.Notify.Title == nil || *c.Notify.Title || c.Notify.Terminal != "osc777" {
		t.Fatalf("read %+v", c.Notify)
	}
	bad := filepath.Join(dir, "bad.toml")
	os.WriteFile(bad, []byte("[notify]\n\nterminal = \"beep\"\n"), 0o600)
	_, err = LoadFile(bad)
	if err == nil || !strings.Contains(err.Error(), "bad.toml:3:") || !strings.Contains(err.Error(), "osc9") {
		t.Fatalf("an unknown terminal notification gave %v", err)
	}
}
