package approvals

import (
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Watch reloads the project and user template files when they change on
// disk (the person edits them, `sentinel templates` writes them). It
// watches the files' directories, since edits often replace a file by
// renaming. onChange, if set, hears of every reload and its error (a broken
// file keeps the previous templates). Stop with Close.
func (s *TemplateSet) Watch(onChange func(Scope, error)) error {
	s.watchMu.Lock()
	defer s.watchMu.Unlock()
	if s.stopWait != nil {
		return errors.New("templates are already being watched")
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return err
	}
	byName := map[string]Scope{}
	for sc, f := range s.files {
		dir := filepath.Dir(f)
		if _, err := os.Stat(dir); err != nil {
			continue // nothing to watch until the directory exists
		}
		if err := w.Add(dir); err != nil {
			w.Close()
			return err
		}
		byName[filepath.Clean(f)] = sc
	}
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		const settle = 50 * time.Millisecond
		timers := map[Scope]*time.Timer{}
		fire := make(chan Scope, 4)
		for {
			select {
			case <-done:
				for _, t := range timers {
					t.Stop()
				}
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				sc, ours := byName[filepath.Clean(ev.Name)]
				if !ours {
					continue
				}
				if t := timers[sc]; t != nil {
					t.Stop()
				}
				timers[sc] = time.AfterFunc(settle, func() {
					select {
					case fire <- sc:
					case <-done:
					}
				})
			case sc := <-fire:
				err := s.Reload(sc)
				if onChange != nil {
					onChange(sc, err)
				}
			case err, ok := <-w.Errors:
				if !ok {
					return
				}
				if onChange != nil {
					onChange("", err)
				}
			}
		}
	}()
	s.stopWait = func() {
		close(done)
		w.Close()
		<-stopped
	}
	return nil
}

// Close stops watching and writes pending usage counts.
func (s *TemplateSet) Close() error {
	s.watchMu.Lock()
	stop := s.stopWait
	s.stopWait = nil
	s.watchMu.Unlock()
	if stop != nil {
		stop()
	}
	s.Flush()
	return nil
}
