package runner

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/fsnotify/fsnotify"
)

// watchGitPlanted removes, as soon as it appears, a file the coder plants
// at the top of the project's git dir that would change where the
// person's own git reads its config (inPlaceGitPlanted): in place the
// person may run git in the project while the coder works, and a planted
// commondir pointing at a config the coder wrote would run the coder's
// core.fsmonitor on the host. The window is the watcher's reaction time,
// not the run; the sweep at the end (removeGitPlanted) stays as the
// backstop, and when the watch cannot be set up the run says so. Each
// removal is told through removed. The returned stop ends the watch and
// waits for it.
func watchGitPlanted(ctx context.Context, p *Project, had map[string]bool, removed func(path string)) (stop func(), err error) {
	if p.GitDir == "" {
		return func() {}, nil
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	if err := w.Add(p.GitDir); err != nil {
		w.Close()
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				name := filepath.Base(ev.Name)
				if filepath.Dir(ev.Name) != filepath.Clean(p.GitDir) || had[name] || !slices.Contains(inPlaceGitPlanted, name) {
					continue
				}
				if _, err := os.Lstat(ev.Name); err == nil && os.RemoveAll(ev.Name) == nil {
					removed(ev.Name)
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
				// An overflow loses events: sweep now instead.
				for _, f := range removeGitPlanted(p, had) {
					removed(f)
				}
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			cancel()
			w.Close()
			wg.Wait()
		})
	}, nil
}
