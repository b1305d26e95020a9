package claudehook

import (
	"github.com/sentinelhq/sentinel/approvals/wire"
	"github.com/sentinelhq/sentinel/internal/flatjson"
	"github.com/sentinelhq/sentinel/runner/hooks"
)

// HookName is the name Claude Code's hooks go by: `sentinel hook claude`.
const HookName = "claude"

// HookDialect is Claude Code's hook language: the shared payload shape in,
// hookSpecificOutput out (HookAnswer), and notes handed to the model with
// a tool's result (additionalContext).
var HookDialect hooks.Dialect = dialect{}

type dialect struct{}

func (dialect) Name() string { return HookName }

func (dialect) Parse(payload []byte) (hooks.Event, error) { return hooks.Read(HookName, payload) }

func (dialect) Answer(ev hooks.Event, d wire.Decision) hooks.Answer { return HookAnswer(ev, d) }

// Note: Claude Code reads additionalContext from PostToolUse (and
// PostToolUseFailure) and shows it to the model with the tool's result.
// Before is the PermissionRequest step's answer (PermissionRequestDeny).
func (dialect) Before(ev hooks.Event, socket string) (hooks.Answer, bool) {
	return PermissionRequestDeny(ev, socket)
}

// AfterDeny hands a PreToolUse deny to the PermissionRequest step
// (DeferDeny), only in a permission mode that takes an ask there
// (AsksReachThePermissionStep).
func (dialect) AfterDeny(ev hooks.Event, payload []byte, d wire.Decision, askErr error, socket string) (hooks.Answer, bool) {
	if !AsksReachThePermissionStep(payload) {
		return hooks.Answer{}, false
	}
	return DeferDeny(ev, d, askErr, socket)
}

func (dialect) Note(ev hooks.Event, note string) []byte {
	if note == "" {
		return nil
	}
	switch hooks.NormEvent(ev.Name) {
	case "posttooluse", "posttoolusefailure":
	default:
		return nil
	}
	b, _ := new(flatjson.Writer).Open().Name("hookSpecificOutput").Open().
		String("hookEventName", ev.Name).String("additionalContext", note).Close().Close().Bytes()
	return append(b, '\n')
}

// HookAnswer writes d in Claude Code's hook format: a PermissionRequest
// gets a decision {behavior, message}, any other event a PreToolUse
// permissionDecision with its reason. Codex's hooks take the same answers.
//
// Claude Code 2.1.332 shows every hook deny alike — this JSON, exit 2 with
// the reason on stderr, or {"decision":"block"}: the model reads
// "PreToolUse:<Tool> hook error: <reason>" and the screen "N actions not
// run · permission denied"; {"continue":false} lets the call run. No
// PreToolUse form reads as a decision there (#37 point 14; the evidence is
// cmd/sentinel/e2e/claude TestRealClaudeShowsEveryHookDenyAsAHookError).
// A PermissionRequest deny does (the model reads its message as is), but
// only after a PreToolUse "ask", and without
// permissions.denyInsteadOfPrompting Claude puts its own approval dialog up
// beside the running PermissionRequest step, where a stray Enter approves
// (the evidence: TestRealClaudeShowsAPermissionRequestDenyAsADecision). So
// PreToolUse answers deny itself, except in a run, whose Claude carries
// denyInsteadOfPrompting: there a deny goes through the PermissionRequest
// step (EnvDenyByPermissionRequest, DeferDeny, PermissionRequestDeny).
//
// In place (sentinel exec) the person keeps Claude's own dialog, and no
// other form reads as a decision there either (read from the 2.1.332
// bundle, #37 point 14): its hook-output reader gives every PreToolUse
// deny a blockingError and its tool runner words any blockingError
// "PreToolUse:<Tool> hook error: …"; permissionDecision "defer" is ignored
// in an interactive session ("defer is print-mode only"): the call goes on
// as if the hook said nothing (TestRealClaudeIgnoresADeferInAnInteractiveSession:
// in auto mode it ran); a PermissionRequest step runs before that dialog
// only for Claude's own person-only asks (plugins' tool.check, auto mode's
// classifier), never for a hook's "ask", so it races the dialog;
// permissionDisplay is for the desktop host only; and an "allow" that
// rewrites the call (updatedInput) into a harmless one would be an allow.
// So exec keeps this one-step deny: fail-closed, no dialog a stray key
// could answer, the reason whole after the prefix.
func HookAnswer(ev hooks.Event, d wire.Decision) hooks.Answer {
	return hooks.Reply(d, func(w *flatjson.Writer, allowed bool, reason string) {
		w.Name("hookSpecificOutput").Open()
		if hooks.NormEvent(ev.Name) == "permissionrequest" {
			w.String("hookEventName", "PermissionRequest").Name("decision").Open().String("behavior", hooks.Word(allowed))
			if !allowed {
				w.String("message", reason)
			}
			w.Close()
		} else {
			w.String("hookEventName", "PreToolUse").String("permissionDecision", hooks.Word(allowed)).
				String("permissionDecisionReason", reason)
		}
		w.Close()
	})
}
