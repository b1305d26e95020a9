//go:build unix

package runlater

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A file this package reads in the place (a makefile, an .envrc, what they
// include, the scripts they run) may be a fifo the coder made: reading it
// must not wait for a writer. Before, ReadMakefile opened it and waited for
// good, and with it every later sentinel mcp writing call (31-ipatk16m:
// `rm Makefile; mkfifo Makefile` through mcp exec). The bound below only
// catches that hang; each read takes microseconds.
func TestAFifoInThePlaceIsNotWaitedOn(t *testing.T) {
	dir := t.TempDir()
	reads := map[string]func(p string){
		"Makefile": func(p string) { ReadMakefile(p) },
		".envrc":   func(p string) { EnvrcSources(dir, p) },
		"run.sh":   func(p string) { EnvrcRuns(p, "run.sh") },
		"path":     func(p string) { envrcPathDirs(p) },
		"make.inc": func(p string) { ReadMakefiles(dir, []string{p}, nil, nil) },
	}
	for name, read := range reads {
		p := filepath.Join(dir, name)
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
		done := make(chan struct{})
		go func() {
			read(p)
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(2 * time.Minute):
			if w, err := os.OpenFile(p, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close() // lets the reader go
			}
			<-done
			t.Errorf("%s: reading a fifo waited for a writer", name)
		}
	}
}
