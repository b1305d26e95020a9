package codex

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"
)

// What Sentinel refused while a command ran (the proxy turning a host away)
// reaches the model after that command's item completes, as Sentinel's
// words in a steering message: the app-server has no other channel.
func TestSessionSteersSentinelsNoteAfterAToolItem(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), envFakeServer+"=tool-note")
	var mu sync.Mutex
	log := &strings.Builder{}
	notes := []string{"Sentinel's proxy refused registry.npmjs.org:443 (to allow: --allow-host registry.npmjs.org)", ""}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := Start(ctx, cmd, Config{Task: "t", Workspace: "/ws", Asker: &stubAsker{},
		Stderr: writerFunc(func(b []byte) { mu.Lock(); log.Write(b); mu.Unlock() }),
		Notes: func() string {
			mu.Lock()
			defer mu.Unlock()
			n := notes[0]
			notes = notes[1:]
			return n
		}})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { s.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second): // hang bound: the fake ends the turn only on a steer
		s.Stop(time.Second)
		t.Fatal("no note was steered to the model after the command completed")
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(log.String(), "steer ") || !strings.Contains(log.String(), NotePrefix+"Sentinel's proxy refused registry.npmjs.org:443") {
		t.Errorf("the proxy's refusal did not reach the model:\n%s", log.String())
	}
}
