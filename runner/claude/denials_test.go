package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sentinelhq/sentinel/runner/coder"
)

// Lines as Claude Code 2.1.332 writes them in its session transcript
// (trimmed to the fields read): a deny rule in the person's settings, a
// hook's deny (Sentinel's own), a refusal at its own prompt, a result.
const (
	ruleLine   = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"Permission to use Bash with command rm -f x has been denied.","is_error":true,"tool_use_id":"toolu_rule"}]},"toolDenialKind":"permission-rule","permissionDecision":{"decision":"reject","source":"config","ruleSource":"userSettings"}}`
	hookLine   = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"denied by hook","is_error":true,"tool_use_id":"toolu_hook"}]},"toolDenialKind":"permission-rule","permissionDecision":{"decision":"reject","source":"hook"}}`
	promptLine = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"The user doesn't want to proceed","is_error":true,"tool_use_id":"toolu_prompt"}]},"toolDenialKind":"user-rejected"}`
	plainLine  = `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"ok","tool_use_id":"toolu_ran"}]}}`
)

func transcriptAdapter(t *testing.T) (*Adapter, string) {
	t.Helper()
	cfg, ws := t.TempDir(), t.TempDir()
	dir := filepath.Join(cfg, "projects", ProjectKey(ws))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return &Adapter{opts: Options{ConfigDir: cfg}, workspace: ws}, dir
}

func TestAgentDenialsReadsThePersonsRulesAndPromptFromTheTranscript(t *testing.T) {
	a, dir := transcriptAdapter(t)
	long := `{"type":"user","toolDenialKind":"permission-rule","pad":"` + strings.Repeat("x", maxTranscriptLine) + `"}`
	body := strings.Join([]string{plainLine, ruleLine, long, hookLine, "not json {", promptLine}, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(dir, "s1.jsonl"), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	got := a.AgentDenials(time.Now().Add(-time.Hour))
	if len(got) != 2 {
		t.Fatalf("denials = %+v, want the rule's and the prompt's (a hook's deny is Sentinel's own)", got)
	}
	if got[0] != (coder.Denied{ToolUseID: "toolu_rule", Tool: "Bash", By: coder.DeniedByRules, Text: "Permission to use Bash with command rm -f x has been denied."}) {
		t.Errorf("rule denial = %+v", got[0])
	}
	if got[1].ToolUseID != "toolu_prompt" || got[1].By != coder.DeniedAtPrompt {
		t.Errorf("prompt denial = %+v", got[1])
	}
}

func TestAgentDenialsReadsOnlyThisCodersSessionsAndNoLink(t *testing.T) {
	a, dir := transcriptAdapter(t)
	old := filepath.Join(dir, "old.jsonl")
	if err := os.WriteFile(old, []byte(ruleLine+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	then := time.Now().Add(-time.Hour)
	if err := os.Chtimes(old, then, then); err != nil {
		t.Fatal(err)
	}
	// A link the coder planted to a transcript elsewhere is not followed.
	elsewhere := filepath.Join(t.TempDir(), "x.jsonl")
	if err := os.WriteFile(elsewhere, []byte(promptLine+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(dir, "link.jsonl")); err != nil {
		t.Fatal(err)
	}
	if got := a.AgentDenials(time.Now().Add(-time.Minute)); len(got) != 0 {
		t.Errorf("denials = %+v, want none: the session is older than the coder, the other a link", got)
	}
	if got := a.AgentDenials(then.Add(-time.Minute)); len(got) != 1 || got[0].ToolUseID != "toolu_rule" {
		t.Errorf("denials since before the old session = %+v, want its one", got)
	}
}
