// Package fakeopenai is a fake OpenAI-compatible chat completions server for
// tests (POST /v1/chat/completions, non-streamed): it answers each request
// with the next scripted Reply — content, a refusal, an HTTP error, a body
// that is not JSON, or a hang until the client gives up — and records every
// request so a test can assert on what the model was sent. StartFunc
// chooses each reply from the request instead.
//
// It owns only test plumbing. It must not be imported by non-test code and
// must never listen on anything but the loopback interface.
package fakeopenai
