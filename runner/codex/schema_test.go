package codex

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// generated is the installed codex's app-server schema, in a temp dir.
func generated(t *testing.T) string {
	t.Helper()
	bin := requireCodex(t)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := GenerateSchema(ctx, bin, dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestInstalledCodexPassesPreflight(t *testing.T) {
	bin := requireCodex(t)
	if err := New(Options{Binary: bin}).Preflight(); err != nil {
		t.Fatalf("preflight of the installed codex: %v", err)
	}
}

// TestCheckSchemaNamesWhatIsMissing breaks a copy of the real schema the
// way a future Codex might and checks the refusal names the part.
func TestCheckSchemaNamesWhatIsMissing(t *testing.T) {
	src := generated(t)
	tests := []struct {
		name, file string
		edit       func(doc map[string]any)
		want       string
	}{
		{"steering method gone", "ClientRequest.json", func(doc map[string]any) {
			var keep []any
			for _, v := range list(doc["oneOf"]) {
				if m := list(dig(v, "properties", "method", "enum")); len(m) == 1 && m[0] == "turn/steer" {
					continue
				}
				keep = append(keep, v)
			}
			doc["oneOf"] = keep
		}, `client method "turn/steer"`},
		{"decision renamed", "CommandExecutionRequestApprovalResponse.json", func(doc map[string]any) {
			for _, v := range list(dig(doc, "definitions", "CommandExecutionApprovalDecision", "oneOf")) {
				if e := list(dig(v, "enum")); len(e) == 1 && e[0] == "acceptForSession" {
					v.(map[string]any)["enum"] = []any{"acceptAlways"}
				}
			}
		}, `decision "acceptForSession"`},
		{"command field gone", "CommandExecutionRequestApprovalParams.json", func(doc map[string]any) {
			delete(dig(doc, "properties").(map[string]any), "command")
		}, `field "command"`},
		{"untrusted policy gone", "v2/ThreadStartParams.json", func(doc map[string]any) {
			for _, v := range list(dig(doc, "definitions", "AskForApproval", "oneOf")) {
				if e := list(dig(v, "enum")); len(e) > 0 {
					v.(map[string]any)["enum"] = []any{"on-request", "never"}
				}
			}
		}, `AskForApproval value "untrusted"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, filepath.FromSlash(tt.file))
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			tt.edit(doc)
			b, _ = json.Marshal(doc)
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			err = CheckSchema(dir)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "npm install -g @openai/codex@") {
				t.Fatalf("CheckSchema = %v, want a refusal naming %s and how to install a supported version", err, tt.want)
			}
		})
	}
	if err := CheckSchema(src); err != nil {
		t.Fatalf("the unmodified schema fails: %v", err)
	}
}

func TestCheckSchemaRefusesAnEmptyDirectory(t *testing.T) {
	err := CheckSchema(t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "ClientRequest.json missing") {
		t.Fatalf("CheckSchema(empty) = %v, want a refusal naming the missing file", err)
	}
}
