// Package fakeresponses is a fake OpenAI Responses API for tests: it replays
// a script of model turns as the streamed SSE that Codex expects
// (response.created, response.output_item.added / .done,
// response.output_text.delta, response.completed), so the real codex binary
// runs its real tool loop and approval logic offline, and it records every
// request so a test can assert on what came back to the model (a
// function_call_output, a decline, a steering message).
//
// Point Codex at it with a model provider in $CODEX_HOME/config.toml whose
// base_url is Server.URL + "/v1" and wire_api = "responses" (see
// runner/codex.WriteConfig).
//
// Main-loop requests and side requests: a request is a main-loop request when
// it offers tools (the agent loop always sends its tool list); anything else
// gets a short canned text and is recorded apart. GET /v1/models is answered
// with an empty list; any other path gets a 404 and is recorded in
// OtherRequests.
//
// It owns only test plumbing. It must not be imported by non-test code and
// must never listen on anything but the loopback interface.
package fakeresponses
