// Package web is the user service's page: a small, mobile-first web console
// (server-rendered html/template, one script file, no framework, embedded)
// that lists every request waiting in the service's approval queue across
// runs and projects and answers it — approve once, remember (the breadths
// and scopes approvals offers a card), deny with a message — with each
// run's state and last lane lines live over server-sent events; and the
// push that tells the person's phone a card waits, with Approve and Deny
// actions carrying a single-use, short-lived signed token bound to that one
// request.
//
// It owns who may use the page: pairing codes and device tokens (Devices,
// stored hashed in the user's state dir, named and revocable), the
// same-origin and per-page token checks on every POST, the
// Content-Security-Policy, the rate limits, and the journal line each
// answer leaves with the device's name. It answers through the queue's own
// answer path (queue.Queue.AnswerNoted): the first answer wins across
// terminal, console, queue, page and push, and the run that posted the
// request checks a remembered grant before its broker stores it.
//
// It must not decide anything (that is approvals and the run) and must not
// trust anything from the coder: every string a card shows goes through
// Shown (textsafe's pieces, hidden characters spelled out) and html/template
// escaping, and nothing the coder wrote becomes markup, a link or script.
// It never serves without a device token, and never serves Sentinel's state
// dir, keys or journal.
package web
