package claudehook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/approvals/wire"
	"github.com/sentinelhq/sentinel/runner/hooks"
)

// permAnswer is a hook's JSON answer, both events' members.
type permAnswer struct {
	H struct {
		Event    string `json:"hookEventName"`
		Decision string `json:"permissionDecision"`
		Reason   string `json:"permissionDecisionReason"`
		PR       struct {
			Behavior string `json:"behavior"`
			Message  string `json:"message"`
		} `json:"decision"`
	} `json:"hookSpecificOutput"`
}

func parseAnswer(t *testing.T, a hooks.Answer) permAnswer {
	t.Helper()
	var p permAnswer
	if err := json.Unmarshal(a.Stdout, &p); err != nil {
		t.Fatalf("answer %q: %v", a.Stdout, err)
	}
	return p
}

func readEvent(t *testing.T, payload string) hooks.Event {
	t.Helper()
	ev, err := HookDialect.Parse([]byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

const (
	preBash  = `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"curl x | sh"},"tool_use_id":"toolu_1","cwd":"/w"}`
	permBash = `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"curl x | sh"},"cwd":"/w"}`
)

// With the switch on (a run's Claude), Sentinel's deny answers PreToolUse
// "ask" with the reason, and the PermissionRequest step for the same call
// denies with that reason, exit 0 (Claude reads no JSON from exit 2); a
// call with no record, and a garbled or foreign one, is denied all the same.
func TestADeferredDenyIsAnsweredByThePermissionStep(t *testing.T) {
	t.Setenv(EnvDenyByPermissionRequest, "1")
	t.Setenv("TMPDIR", t.TempDir())
	sock := "/run/s1.sock"
	deny := wire.DenyBy("policy:pipe-to-shell", "curl piped into sh")

	a, ok := DeferDeny(readEvent(t, preBash), deny, nil, sock)
	if !ok || a.Exit != 0 {
		t.Fatalf("DeferDeny = %+v, %v: want an ask, exit 0", a, ok)
	}
	if p := parseAnswer(t, a); p.H.Event != "PreToolUse" || p.H.Decision != "ask" || p.H.Reason != deny.Message {
		t.Errorf("PreToolUse answer %s, want ask with %q", a.Stdout, deny.Message)
	}
	// Another run's (socket's) permission step does not see the record.
	other, _ := PermissionRequestDeny(readEvent(t, permBash), "/run/s2.sock")
	if p := parseAnswer(t, other); p.H.PR.Behavior != "deny" || p.H.PR.Message != NoRecordReason {
		t.Errorf("another run's PermissionRequest answer %s, want deny with %q", other.Stdout, NoRecordReason)
	}
	a, ok = PermissionRequestDeny(readEvent(t, permBash), sock)
	if !ok || a.Exit != 0 {
		t.Fatalf("PermissionRequestDeny = %+v, %v: want a deny, exit 0", a, ok)
	}
	if p := parseAnswer(t, a); p.H.Event != "PermissionRequest" || p.H.PR.Behavior != "deny" || p.H.PR.Message != deny.Message {
		t.Errorf("PermissionRequest answer %s, want deny with %q", a.Stdout, deny.Message)
	}
	// The record is taken: asked again, the step still denies.
	a, _ = PermissionRequestDeny(readEvent(t, permBash), sock)
	if p := parseAnswer(t, a); p.H.PR.Behavior != "deny" || p.H.PR.Message != NoRecordReason {
		t.Errorf("PermissionRequest answer with no record %s, want deny with %q", a.Stdout, NoRecordReason)
	}
	// A PermissionRequest nobody recorded anything for — another tool.
	a, _ = PermissionRequestDeny(readEvent(t, `{"hook_event_name":"PermissionRequest","tool_name":"Write","tool_input":{"file_path":"/w/a","content":"x"}}`), sock)
	if p := parseAnswer(t, a); p.H.PR.Behavior != "deny" || p.H.PR.Message != NoRecordReason {
		t.Errorf("PermissionRequest for an unrecorded call %s, want deny", a.Stdout)
	}
}

// What stays a plain PreToolUse deny: an allow is never touched; without
// the switch, or when the broker gave no answer (gone: one step, as a hook
// error), the deny is answered in PreToolUse itself. Without the switch a
// PermissionRequest is not answered here (the broker is asked, as before).
func TestWhatIsNotDeferred(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	deny := wire.DenyBy("policy:x", "no")
	ev := readEvent(t, preBash)
	t.Setenv(EnvDenyByPermissionRequest, "1")
	if _, ok := DeferDeny(ev, wire.Decision{Outcome: wire.OutcomeAllow, By: "policy:y"}, nil, "/s"); ok {
		t.Error("an allow was deferred")
	}
	if _, ok := DeferDeny(ev, deny, errBroker{}, "/s"); ok {
		t.Error("a deny for a broker that never answered was deferred")
	}
	if _, ok := DeferDeny(readEvent(t, permBash), deny, nil, "/s"); ok {
		t.Error("a PermissionRequest's deny was deferred")
	}
	t.Setenv(EnvDenyByPermissionRequest, "")
	if _, ok := DeferDeny(ev, deny, nil, "/s"); ok {
		t.Error("deferred without the switch")
	}
	if _, ok := PermissionRequestDeny(readEvent(t, permBash), "/s"); ok {
		t.Error("a PermissionRequest answered here without the switch")
	}
}

// With the switch on, a deny that cannot be recorded is answered in
// PreToolUse itself (never an ask with nothing behind it).
func TestADenyThatCannotBeRecordedIsNotDeferred(t *testing.T) {
	t.Setenv(EnvDenyByPermissionRequest, "1")
	t.Setenv("TMPDIR", "/nonexistent/sentinel-test")
	if _, ok := DeferDeny(readEvent(t, preBash), wire.DenyBy("policy:x", "no"), nil, "/s"); ok {
		t.Error("deferred a deny it could not record")
	}
}

type errBroker struct{}

func (errBroker) Error() string { return "cannot reach the Sentinel broker" }

// A deny is deferred to the permission step only in Claude's default
// mode: in acceptEdits (an edit is accepted without that step) or
// bypassPermissions (claude-code#77212) an "ask" would become an allow, so
// there, and when the mode is missing or the payload unreadable, the deny
// is answered in PreToolUse itself.
func TestOnlyTheDefaultModeTakesAnAskToThePermissionStep(t *testing.T) {
	for payload, want := range map[string]bool{
		`{"hook_event_name":"PreToolUse","permission_mode":"default","tool_name":"Write"}`:          true,
		`{"hook_event_name":"PreToolUse","permission_mode":"acceptEdits","tool_name":"Write"}`:      false,
		`{"hook_event_name":"PreToolUse","permission_mode":"bypassPermissions","tool_name":"Bash"}`: false,
		`{"hook_event_name":"PreToolUse","permission_mode":"plan","tool_name":"Bash"}`:              false,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash"}`:                                       false,
		`{"hook_event_name":"PreToolUse","permission_mode":`:                                        false,
	} {
		if got := AsksReachThePermissionStep([]byte(payload)); got != want {
			t.Errorf("%s: %v, want %v", payload, got, want)
		}
	}
}

// A link planted at a record's predictable name (without a sandbox the
// directory is shared with other users) is never followed: the file it
// points at keeps its content, and the deny is still recorded.
func TestARecordNeverFollowsAPlantedLink(t *testing.T) {
	t.Setenv(EnvDenyByPermissionRequest, "1")
	t.Setenv("TMPDIR", t.TempDir())
	target := filepath.Join(t.TempDir(), "persons-file")
	if err := os.WriteFile(target, []byte("PERSON"), 0o600); err != nil {
		t.Fatal(err)
	}
	ev := readEvent(t, preBash)
	if err := os.Symlink(target, recordPath("/run/s1.sock", ev.Request)); err != nil {
		t.Fatal(err)
	}
	if _, ok := DeferDeny(ev, wire.DenyBy("policy:x", "no"), nil, "/run/s1.sock"); !ok {
		t.Fatal("the deny was not deferred")
	}
	if b, _ := os.ReadFile(target); string(b) != "PERSON" {
		t.Errorf("the planted link was followed: the person's file now holds %q", b)
	}
}

// The dialect carries its own steps around the ask (hooks.Steps), so the
// hook side calls them without naming Claude: before the ask, the
// PermissionRequest step's deny; after a deny, the hand-over to that step
// — only where the payload's permission mode takes an ask there.
func TestTheDialectCarriesItsPermissionSteps(t *testing.T) {
	t.Setenv(EnvDenyByPermissionRequest, "1")
	t.Setenv("TMPDIR", t.TempDir())
	steps, ok := HookDialect.(hooks.Steps)
	if !ok {
		t.Fatal("Claude's dialect has no steps around the ask")
	}
	deny := wire.DenyBy("policy:pipe-to-shell", "curl piped into sh")
	withMode := func(mode string) []byte {
		return []byte(strings.Replace(preBash, `{`, `{"permission_mode":"`+mode+`",`, 1))
	}
	if _, ok := steps.AfterDeny(readEvent(t, string(withMode("acceptEdits"))), withMode("acceptEdits"), deny, nil, "/run/s1.sock"); ok {
		t.Error("a deny in acceptEdits was handed to the permission step, which that mode skips")
	}
	a, ok := steps.AfterDeny(readEvent(t, string(withMode("default"))), withMode("default"), deny, nil, "/run/s1.sock")
	if p := parseAnswer(t, a); !ok || p.H.Decision != "ask" {
		t.Fatalf("AfterDeny in default mode = %s, %v: want the deny handed on as an ask", a.Stdout, ok)
	}
	a, ok = steps.Before(readEvent(t, permBash), "/run/s1.sock")
	if p := parseAnswer(t, a); !ok || p.H.PR.Behavior != "deny" || p.H.PR.Message != deny.Message {
		t.Errorf("Before on the PermissionRequest step = %s, %v: want the recorded deny", a.Stdout, ok)
	}
}
