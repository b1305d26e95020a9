package claudehook

import (
	"encoding/hex"
	"hash/fnv"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/approvals/wire"
	"github.com/sentinelhq/sentinel/internal/flatjson"
	"github.com/sentinelhq/sentinel/runner/hooks"
)

// EnvDenyByPermissionRequest, set to "1" on a run's hook command
// (claude.Adapter), makes a PreToolUse deny go through Claude Code's
// permission step, the one form Claude 2.1.332 shows as a decision with
// its reason ("Denied by PermissionRequest hook · Reason: …") rather than
// "PreToolUse:Bash hook error: …" (#37 point 14; the evidence is
// cmd/sentinel/e2e/claude TestRealClaudeShowsAPermissionRequestDenyAsADecision):
//
//   - the PreToolUse step records Sentinel's deny under the call's tool
//     and input (a file in the hook's temporary directory: nothing new on
//     the network or the broker's socket) and answers "ask" with the reason;
//   - the PermissionRequest step answers deny with the recorded reason, and
//     deny with a reason of its own when there is no record: it never
//     allows and never asks the broker (the person is not asked twice).
//
// Only a run's Claude carries it, because only there do the settings carry
// permissions.denyInsteadOfPrompting, where the coder cannot unset it:
// with it a PermissionRequest step that fails, is killed or times out
// leaves Claude refusing the call, and Claude shows no dialog of its own
// that a stray Enter could answer. If the PreToolUse step cannot record the
// deny it answers deny itself, as without the switch.
const EnvDenyByPermissionRequest = "SENTINEL_CLAUDE_DENY_BY_PERMISSION_REQUEST"

// NoRecordReason is the PermissionRequest step's reason when it finds no
// PreToolUse decision for the call.
const NoRecordReason = "Sentinel denied this: no Sentinel decision allowed this call"

// DeferDeny is the PreToolUse answer that hands d, a deny, to the
// PermissionRequest step: "ask" with d's reason, once the deny is recorded
// for the call. ok is false — answer d itself — when the switch is off,
// the event or decision is another, the broker gave no answer (askErr: a
// broker that is gone is refused as a hook error, in one step), or nothing
// could be recorded.
func DeferDeny(ev hooks.Event, d wire.Decision, askErr error, socket string) (a hooks.Answer, ok bool) {
	if askErr != nil || d.Allowed() || !deferring() || hooks.NormEvent(ev.Name) != "pretooluse" || ev.Request == nil {
		return hooks.Answer{}, false
	}
	reason := d.Message
	if reason == "" {
		reason = d.Reason
	}
	if reason == "" {
		reason = "Sentinel denied this"
	}
	if err := record(socket, ev.Request, reason); err != nil {
		return hooks.Answer{}, false
	}
	w := new(flatjson.Writer).Open().Name("hookSpecificOutput").Open().
		String("hookEventName", "PreToolUse").String("permissionDecision", "ask").
		String("permissionDecisionReason", reason).Close()
	b, _ := w.Close().Bytes()
	return hooks.Answer{Stdout: append(b, '\n')}, true
}

// PermissionRequestDeny is the PermissionRequest step's answer when the
// switch is on: always a deny, with the reason the PreToolUse step
// recorded for the call, else NoRecordReason. ok is false when the switch
// is off or ev is another event.
func PermissionRequestDeny(ev hooks.Event, socket string) (a hooks.Answer, ok bool) {
	if !deferring() || hooks.NormEvent(ev.Name) != "permissionrequest" {
		return hooks.Answer{}, false
	}
	msg := NoRecordReason
	if ev.Request != nil {
		if r := take(socket, ev.Request); r != "" {
			msg = r
		}
	}
	// Exit 0: Claude reads the JSON of a step that exits 0 only; exit 2
	// would show as a hook error again.
	b, _ := new(flatjson.Writer).Open().Name("hookSpecificOutput").Open().
		String("hookEventName", "PermissionRequest").Name("decision").Open().
		String("behavior", "deny").String("message", msg).Close().Close().Close().Bytes()
	return hooks.Answer{Stdout: append(b, '\n')}, true
}

func deferring() bool { return os.Getenv(EnvDenyByPermissionRequest) == "1" }

// recordPath is where the deny of call req in the run at socket is kept.
// Claude 2.1.332 gives the PermissionRequest step no tool_use_id, only the
// tool's name and input, so those name the call (hash/fnv: the hook links
// no crypto package, and the record only carries the reason shown).
func recordPath(socket string, req *wire.Request) string {
	h := fnv.New128a()
	for _, part := range [][]byte{[]byte(socket), []byte(req.Tool), req.Input} {
		h.Write(part)
		h.Write([]byte{0})
	}
	return filepath.Join(os.TempDir(), "sentinel-claude-deny-"+hex.EncodeToString(h.Sum(nil)))
}

func record(socket string, req *wire.Request, reason string) error {
	// The name is predictable and, without a sandbox, in a directory other
	// users share: an old record is removed and a new one made exclusively
	// (a planted link there is never followed, a planted file never reused).
	p := recordPath(socket, req)
	if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(reason); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// take reads and removes the record of call req; "" when there is none.
func take(socket string, req *wire.Request) string {
	p := recordPath(socket, req)
	// Only a plain file is read (the step denies whatever it finds; a
	// planted one can at most change the reason shown).
	if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	b, err := io.ReadAll(io.LimitReader(f, 8192))
	f.Close()
	os.Remove(p)
	if err != nil {
		return ""
	}
	s := strings.TrimSpace(string(b))
	if len(s) > 4096 {
		s = s[:4096]
	}
	return s
}

// AsksReachThePermissionStep reports whether Claude, in the permission
// mode its PreToolUse payload names, takes a hook's "ask" to its permission
// step — only then may a deny be deferred to it. In "default" it does. In
// acceptEdits Claude accepts a file edit without that step, and in
// bypassPermissions it accepts everything (anthropics/claude-code#77212:
// a hook's "ask" silently auto-approved), so a deferred deny would become
// an allow there: the person can switch modes in the coder's pane, and the
// person's own settings may name a default mode. Any other, missing or
// unreadable mode answers the deny in PreToolUse itself.
func AsksReachThePermissionStep(payload []byte) bool {
	o, err := flatjson.Parse(payload)
	if err != nil {
		return false
	}
	mode, err := o.String("permission_mode")
	return err == nil && mode == "default"
}
