package fakegemini

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// pinned is the gemini-cli version CI installs and these tests were written
// against.
const pinned = "0.61.0"

// needGemini returns the gemini binary, skipping the test when it is not
// installed — except under CI=true, where a missing one is a failure.
func needGemini(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("gemini")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("gemini is not on PATH; CI must install it: npm install -g @google/gemini-cli@" + pinned)
		}
		t.Skip("gemini is not on PATH; install it with: npm install -g @google/gemini-cli@" + pinned)
	}
	return p
}

// runGemini runs the real gemini with args in dir against s and returns
// its stdout; a throwaway HOME holds the settings.
func runGemini(t *testing.T, s *Server, dir string, args ...string) []byte {
	t.Helper()
	bin := needGemini(t)
	home := t.TempDir()
	if err := WriteSettings(home); err != nil {
		t.Fatal(err)
	}
	// A generous bound so a hang fails the test instead of the whole run;
	// not a timing assertion.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, s.Env(home)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("gemini %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout.Bytes(), stderr.Bytes())
	}
	return stdout.Bytes()
}

func TestRealGeminiRunsScriptedShellCommand(t *testing.T) {
	needGemini(t)
	s, err := Start(Script{
		Reply(Text("Creating the file."), ShellCommand("echo made-by-gemini > made.txt && echo shell-ran", "")),
		{When: AfterFunctionResponse, Items: []Item{Text("Done: made.txt exists.")}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ws := t.TempDir()

	out := runGemini(t, s, ws, "-p", "make the file", "--yolo", "--output-format", "json")

	var result struct {
		Response string `json:"response"`
	}
	if err := json.Unmarshal(out, &result); err != nil {
		t.Fatalf("gemini's json output: %v\n%s", err, out)
	}
	if !strings.HasSuffix(result.Response, "Done: made.txt exists.") {
		t.Errorf("final response %q, want it to end with the scripted text", result.Response)
	}
	got, err := os.ReadFile(filepath.Join(ws, "made.txt"))
	if err != nil || string(got) != "made-by-gemini\n" {
		t.Errorf("made.txt = %q, %v; the scripted command did not run", got, err)
	}
	reqs := s.Requests()
	if len(reqs) != 2 || s.Used() != 2 {
		t.Fatalf("main-loop requests %d, turns used %d, want 2 and 2: %v", len(reqs), s.Used(), reqs)
	}
	if !reqs[0].HasTool("run_shell_command") {
		t.Errorf("first request offers %v, want run_shell_command", reqs[0].Tools)
	}
	resp, ok := reqs[1].FunctionResponse("run_shell_command")
	if !ok || resp.IsError() || !strings.Contains(resp.Output(), "shell-ran") {
		t.Errorf("shell function response = %+v, %v; want its output holding shell-ran", resp, ok)
	}
	if other := s.OtherRequests(); len(other) != 0 {
		t.Errorf("gemini called other endpoints: %v", other)
	}
}
