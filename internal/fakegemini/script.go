package fakegemini

import "encoding/json"

// Item is one part of a scripted model turn: text (a thought when Thought is
// set) or a functionCall with a name and args.
type Item struct {
	Text    string
	Thought bool
	// Function call.
	Name   string
	Args   any    // marshalled to a JSON object; a map or struct
	CallID string // optional; the Gemini API sends none and gemini-cli makes its own
}

// Text is a text part.
func Text(s string) Item { return Item{Text: s} }

// Thought is a thought (reasoning) part.
func Thought(s string) Item { return Item{Text: s, Thought: true} }

// FunctionCall asks the client to call tool name with args.
func FunctionCall(name string, args any) Item { return Item{Name: name, Args: args} }

// ShellCommand is a call of gemini-cli's shell tool (run_shell_command)
// running command in dir (empty: the workspace root).
func ShellCommand(command, dir string) Item {
	args := map[string]any{"command": command, "description": "scripted by the test"}
	if dir != "" {
		args["dir_path"] = dir
	}
	return FunctionCall("run_shell_command", args)
}

// WriteFile is a call of gemini-cli's write_file tool.
func WriteFile(path, content string) Item {
	return FunctionCall("write_file", map[string]any{"file_path": path, "content": content})
}

// ReadFile is a call of gemini-cli's read_file tool.
func ReadFile(path string) Item { return FunctionCall("read_file", map[string]any{"file_path": path}) }

// Replace is a call of gemini-cli's replace (edit) tool.
func Replace(path, oldText, newText string) Item {
	return FunctionCall("replace", map[string]any{"file_path": path, "old_string": oldText,
		"new_string": newText, "instruction": "scripted by the test"})
}

// IsCall says whether the item is a function call.
func (i Item) IsCall() bool { return i.Name != "" }

func (i Item) part() (map[string]any, error) {
	if !i.IsCall() {
		p := map[string]any{"text": i.Text}
		if i.Thought {
			p["thought"] = true
		}
		return p, nil
	}
	args := map[string]any{}
	if i.Args != nil {
		b, err := json.Marshal(i.Args)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &args); err != nil {
			return nil, err
		}
	}
	call := map[string]any{"name": i.Name, "args": args}
	if i.CallID != "" {
		call["id"] = i.CallID
	}
	return map[string]any{"functionCall": call}, nil
}

// Usage is a turn's usageMetadata.
type Usage struct{ Prompt, Candidates int }

// Turn is one scripted reply of the model. When is a predicate on the
// request being answered; a turn whose When is nil always matches.
type Turn struct {
	When  func(*Request) bool
	Items []Item
	Usage Usage // zero: 10 prompt and 5 candidate tokens
	// Status, when not 0 or 200, answers with that HTTP status and an
	// API-shaped error body. gemini-cli retries 429 and 5xx, and each retry
	// takes the next turn.
	Status int
	// Hang holds the request open until the client gives up or the server
	// closes.
	Hang bool
}

// Reply is a turn that always matches.
func Reply(items ...Item) Turn { return Turn{Items: items} }

// Fail is a turn answered with an HTTP error status.
func Fail(status int) Turn { return Turn{Status: status} }

// Hang is a turn that never answers.
func Hang() Turn { return Turn{Hang: true} }

// Script is the model's turns in order. Each main-loop request is answered
// by the first unused turn whose When matches; when none is left the reply
// is the text Exhausted.
type Script []Turn

// Exhausted is what the fake model says when its script has no turn left.
const Exhausted = "(fake model: no scripted turn left)"

// AfterFunctionResponse matches a request that carries function responses
// answering the model's last turn (see Request.LastFunctionResponses).
func AfterFunctionResponse(r *Request) bool { return len(r.LastFunctionResponses()) > 0 }
