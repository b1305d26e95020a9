package themes

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watch calls onChange with the freshly loaded themes whenever a *.toml file
// in dir is written, created, renamed or removed, until ctx ends. Bursts of
// file events (editors write in several steps) are folded into one call.
// A directory that does not exist is created so that themes added later are
// seen.
func Watch(ctx context.Context, dir string, onChange func(map[string]Palette, []error)) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("watch themes: create %s: %w", dir, err)
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watch themes: %w", err)
	}
	if err := w.Add(dir); err != nil {
		w.Close()
		return fmt.Errorf("watch themes in %s: %w", dir, err)
	}
	go func() {
		defer w.Close()
		const settle = 100 * time.Millisecond
		var timer *time.Timer
		var fire <-chan time.Time
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if !strings.HasSuffix(ev.Name, ".toml") || filepath.Dir(ev.Name) != filepath.Clean(dir) {
					continue
				}
				if timer == nil {
					timer = time.NewTimer(settle)
				} else {
					timer.Reset(settle)
				}
				fire = timer.C
			case err, ok := <-w.Errors:
				if !ok {
					return
				}
				onChange(nil, []error{fmt.Errorf("watch themes in %s: %w", dir, err)})
			case <-fire:
				fire = nil
				onChange(LoadDir(dir))
			}
		}
	}()
	return nil
}
