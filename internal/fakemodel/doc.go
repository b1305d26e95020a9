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
// What Claude Code 2.1.332 was seen to call (measured with this server):
//   - claude -p, with or without CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1:
//     only POST /v1/messages?beta=true, streamed, with tools — one per turn.
//   - interactive, with CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1: the same.
//   - interactive without it: also HEAD /api/hello (a connectivity check)
//     and a streamed POST /v1/messages on the main model with no tools whose
//     system prompt asks to name the session (a side request).
//
// count_tokens and GET /v1/models are answered minimally in case a version
// calls them; any other path gets a 404 in the API's error shape and is
// recorded in OtherRequests so a test can see it.
//
// A request with "stream": false gets the whole message as one JSON body
// (what a non-streaming SDK call expects). A scripted turn can also fail
// (Fail(status): an API-shaped error with that HTTP status) or hang (Hang():
// no answer until the client gives up), for testing clients that must fail
// closed.
//
// It owns only test plumbing. It must not be imported by non-test code and
// must never listen on anything but the loopback interface.
package fakemodel
