package fakeresponses

import "encoding/json"

// Item is one output item of a scripted model turn: assistant text, a
// function call (arguments marshalled to a JSON string, as the API sends
// them), or a custom (freeform) tool call whose input is plain text.
type Item struct {
	Text string
	// Function call.
	Name      string
	Arguments any
	// Namespace, when set, is the function call's namespace (Codex puts
	// each MCP server's tools in one, e.g. "mcp__server__").
	Namespace string
	// Custom tool call (Input is sent as is).
	Custom bool
	Input  string
	CallID string // optional; generated when empty
}

// Text is an assistant message.
func Text(s string) Item { return Item{Text: s} }

// FunctionCall asks the client to call tool name with args.
func FunctionCall(name string, args any) Item { return Item{Name: name, Arguments: args} }

// ExecCommand is a call of Codex's shell tool (exec_command) running cmd in
// workdir (empty: the thread's cwd).
func ExecCommand(cmd, workdir string) Item {
	args := map[string]any{"cmd": cmd}
	if workdir != "" {
		args["workdir"] = workdir
	}
	return FunctionCall("exec_command", args)
}

// CustomToolCall is a freeform tool call (Codex's apply_patch is one when
// the request offers it as type "custom").
func CustomToolCall(name, input string) Item { return Item{Name: name, Custom: true, Input: input} }

// IsCall says whether the item is a tool call.
func (i Item) IsCall() bool { return i.Name != "" }

func (i Item) argumentsJSON() (string, error) {
	if i.Arguments == nil {
		return "{}", nil
	}
	if s, ok := i.Arguments.(string); ok {
		return s, nil
	}
	b, err := json.Marshal(i.Arguments)
	return string(b), err
}

// Turn is one scripted reply. When is a predicate on the request being
// answered; a turn whose When is nil always matches.
type Turn struct {
	When  func(*Request) bool
	Items []Item
	// Make, when set, builds the turn's items from the request it answers
	// (a poll of the session a running command's output names).
	Make func(*Request) []Item
	// Status, when not 0 or 200, answers with that HTTP status and an
	// API-shaped error body (Message) instead of a response.
	Status  int
	Message string
}

// Fail is a turn answered with an HTTP error status and message (a 400 is
// not retried by Codex: its turn fails at once).
func Fail(status int, message string) Turn { return Turn{Status: status, Message: message} }

// Reply is a turn that always matches.
func Reply(items ...Item) Turn { return Turn{Items: items} }

// Script is the model's turns in order. Each main-loop request is answered
// by the first unused turn whose When matches; when none is left the reply is
// the text Exhausted.
type Script []Turn

// Exhausted is what the fake model says when its script has no turn left.
const Exhausted = "(fake model: no scripted turn left)"
