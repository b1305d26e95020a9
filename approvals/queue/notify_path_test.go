//go:build unix

package queue

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/internal/hostbin"
)

// The desktop notifier runs on the host with the person's environment: a
// notify-send earlier on PATH inside the project a coder works in is never
// the one that runs; the person's own is.
func TestDesktopNudgeRunsThePersonsNotifier(t *testing.T) {
	tmp, _ := filepath.EvalSymlinks(t.TempDir())
	project, own := filepath.Join(tmp, "project"), filepath.Join(tmp, "own")
	for _, d := range []string{filepath.Join(project, "bin"), own} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		script := "#!/bin/sh\n/usr/bin/touch " + filepath.Join(d, "ran") + "\n"
		if err := os.WriteFile(filepath.Join(d, "notify-send"), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", filepath.Join(project, "bin")+":"+own)
	defer hostbin.SetPersonPATHForTest(os.Getenv("PATH"))()
	hostbin.PinPerson([]string{project}, hostbin.PersonPrograms...)
	Notifier{Desktop: true, Timeout: time.Minute}.Notify(Entry{ID: "q1", Project: project})
	if _, err := os.Stat(filepath.Join(project, "bin", "ran")); err == nil {
		t.Fatal("the project's notify-send ran on the host")
	}
	if _, err := os.Stat(filepath.Join(own, "ran")); err != nil {
		t.Fatalf("the person's notify-send did not run: %v", err)
	}
}
