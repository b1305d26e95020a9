// Package fakegemini is a fake Gemini API (generativelanguage v1beta) for
// tests: it replays a script of model turns as the responses gemini-cli
// expects, so the real gemini binary runs its real tool loop, approval
// logic and ACP server offline, and it records every request so a test can
// assert on what came back to the model (a functionResponse holding a
// tool's output, or the error of a refused call).
//
// Point gemini-cli at it with Server.Env (GOOGLE_GEMINI_BASE_URL = URL, any
// GEMINI_API_KEY, a throwaway HOME, GEMINI_CLI_TRUST_WORKSPACE=true for -p)
// and WriteSettings (API-key auth, usage statistics, telemetry, update
// checks and IDE integration off). Measured with gemini-cli 0.61.0: with
// those, gemini -p and gemini --acp make no network call but to this server.
//
// Endpoints: POST /v1beta/models/{model}:streamGenerateContent?alt=sse
// (SSE "data: {GenerateContentResponse}" chunks, one per scripted part, the
// last with finishReason STOP and usageMetadata), :generateContent (the same
// turn as one JSON response) and :countTokens. Any other path gets a 404 in
// the Google API error shape and is recorded in OtherRequests.
//
// Main-loop requests and side requests: the agent loop streams with its
// function declarations; gemini-cli's own checks (the model router's
// complexity classifier on every prompt, next-speaker and loop detection)
// call generateContent with a generationConfig.responseJsonSchema and no
// tools. Those must not consume scripted turns: IsMainLoop tells them apart
// (Server.IsMain can replace it) and DefaultSide answers them with JSON that
// satisfies their schema, chosen so the client carries on (next speaker
// "user", loop confidence 0).
//
// A scripted turn can also fail (Fail(status)) or hang (Hang()).
//
// It owns only test plumbing. It must not be imported by non-test code and
// must never listen on anything but the loopback interface.
package fakegemini
