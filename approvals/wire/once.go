package wire

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// EnvHookTimeout optionally tells `sentinel hook` how long to wait for a
// decision (a Go duration like "9m30s"). Set it below the agent's own hook
// timeout: an agent lets a timed-out hook's call proceed, so the hook must
// deny first.
const EnvHookTimeout = "SENTINEL_HOOK_TIMEOUT"

// dialTimeout bounds connecting to the broker and sending it the line.
const dialTimeout = 5 * time.Second

// oneID is the id of the one message an exchange sends.
const oneID = "c1"

// AskOnce asks the broker at socketPath one request on a connection of its
// own. It never fails open: on any failure — no socket, an unreachable
// broker, ctx done, an answer that is not one decision — the returned
// decision is a deny (By "error" or "timeout") and err says why.
func AskOnce(ctx context.Context, socketPath string, req Request) (Decision, error) {
	return AskWithin(ctx, socketPath, req, 0)
}

// AskWithin is AskOnce that also gives up after d (0: only ctx bounds
// it). The socket's own timeouts enforce d, so a hook bounds its wait
// without starting a timer (and with it the runtime's poller).
func AskWithin(ctx context.Context, socketPath string, req Request, d time.Duration) (Decision, error) {
	r, err := exchange(ctx, socketPath, Message{Type: TypeRequest, Request: &req}, d)
	return DecisionIn(r, err)
}

// ReportOnce sends a report on a connection of its own, giving up after d
// (0: only ctx bounds it), and returns the broker's note for the coder's
// agent ("" when none): what Sentinel refused since the last tool result.
func ReportOnce(ctx context.Context, socketPath string, rep Report, d time.Duration) (string, error) {
	r, err := exchange(ctx, socketPath, Message{Type: TypeReport, Report: &rep}, d)
	return NoteIn(r, err)
}

// DecisionIn is the decision an answer to a request carries, or a deny
// saying why there is none: err (the exchange failed; a deadline is By
// "timeout"), an answer of another type, or an outcome that is neither
// allow nor deny.
func DecisionIn(r Message, err error) (Decision, error) {
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return DenyBy("timeout", "no decision from the broker in time"), err
		}
		return DenyBy("error", err.Error()), err
	}
	if r.Type != TypeDecision || r.Decision == nil {
		err := fmt.Errorf("the broker answered %q without a decision", r.Type)
		return DenyBy("error", err.Error()), err
	}
	d := *r.Decision
	if d.Outcome != OutcomeAllow && d.Outcome != OutcomeDeny {
		err := fmt.Errorf("the broker answered an unknown decision %q", d.Outcome)
		return DenyBy("error", err.Error()), err
	}
	return d, nil
}

// NoteIn is the note an answer to a report carries, or why the report was
// not taken.
func NoteIn(r Message, err error) (string, error) {
	if err != nil {
		return "", err
	}
	if r.Type != TypeAck {
		if r.Error != "" {
			return "", errors.New(r.Error)
		}
		return "", fmt.Errorf("the broker answered %q to a report", r.Type)
	}
	return r.Note, nil
}

// NoRun is the error of a client with no socket to go to.
func NoRun() error {
	return fmt.Errorf("no Sentinel run: %s is not set (run the coder with 'sentinel run')", EnvSocket)
}

// Unreachable is the error of a client that could not connect.
func Unreachable(socketPath string, err error) error {
	return fmt.Errorf("cannot reach the Sentinel broker at %s: %w", socketPath, err)
}
