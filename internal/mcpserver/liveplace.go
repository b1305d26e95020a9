package mcpserver

import (
	"encoding/json"
	"errors"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sentinelhq/sentinel/internal/placelock"
)

// A place an in-place run (sentinel exec, a shim) works on is that run's
// for its life (placelock), and a call that can write there is refused
// until it ends; reading goes on. Refused, not only reported: the run's
// end compares the place with its start, so its report would name the
// call's change as its coder's and its undo would put it back; and this
// server's commands hold the git includes and hooks folders the run made
// read-only by mounts that the run's end removes with them (how a second
// exec once wrote .githooks/pre-commit, h/ipatk11). A client hears which
// run and when to try again; the audit keeps the refusal. The server takes
// no lock of its own: it serves its rw paths for hours, and an exec there
// must not wait on it.

// ClassPlaceBusy is a write to a place a live in-place run works on.
const ClassPlaceBusy Class = "place-busy"

// writeTargets are what a writing call op may change: the paths it names
// (a move's both ends), or every rw path for a command (exec, playbook)
// and for a path not absolute.
func (s *Server) writeTargets(op string, req *mcp.CallToolRequest) []string {
	if !writingOps[op] {
		return nil
	}
	var a struct{ Path, From, To string }
	if op != "exec" && op != "playbook" && req != nil && req.Params != nil && json.Unmarshal(req.Params.Arguments, &a) == nil {
		var out []string
		for _, p := range []string{a.Path, a.To} {
			if p != "" {
				out = append(out, p)
			}
		}
		if op == "move" && a.From != "" {
			out = append(out, a.From)
		}
		all := len(out) > 0
		for _, p := range out {
			all = all && filepath.IsAbs(p)
		}
		if all {
			return out
		}
	}
	return rwRoots(s.cfg)
}

// refuseInLivePlace refuses a writing call op whose targets lie in (or
// hold) a place a live in-place run works on; a place lock that cannot be
// read refuses too.
func (s *Server) refuseInLivePlace(op string, req *mcp.CallToolRequest) error {
	for _, p := range s.writeTargets(op, req) {
		err := placelock.Live(p)
		var busy *placelock.BusyError
		switch {
		case errors.As(err, &busy):
			return &Refusal{Class: ClassPlaceBusy, Rule: "one in-place run a place", Reason: p + ": " + busy.Error(),
				Use: "try again when that run has ended (its report and undo would count this change as its coder's), or work under another path"}
		case err != nil:
			return &Refusal{Class: ClassPlaceBusy, Rule: "one in-place run a place", Reason: "cannot tell whether an in-place run works on " + p + ": " + err.Error(), Use: "ask the person to look at Sentinel's state dir"}
		}
	}
	return nil
}
