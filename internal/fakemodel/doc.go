// Package fakemodel is a fake Anthropic Messages API for tests: it replays a
// script of model turns as the streamed SSE that Claude Code expects, so the
// real claude binary runs its real tool loop, hooks and permission logic
// offline, and it records every request it received so a test can assert on
// what came back to the model (a tool_result, a deny reason).
//
// Main-loop requests and side requests: Claude Code also sends requests that
// are not turns of the agent's loop (title or topic generation, quota and
// summary calls on the small model). Those must not consume scripted turns.
// A request is a main-loop request when it offers tools (the agent loop always
// sends its tool list; side calls send none); Server.IsMain can replace that
// rule. Side requests get a short canned text reply and are recorded apart.
//
// It owns only test plumbing. It must not be imported by non-test code and
// must never listen on anything but the loopback interface.
package fakemodel
