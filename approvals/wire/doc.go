// Package wire is what both ends of a run broker's socket share, and all a
// hook command needs of approvals: the agent-neutral words every adapter
// translates its agent into (Request, Report, Decision, and the Match and
// GrantSpec a remembered approval is made of), the protocol's lines
// (Message, PROTOCOL.md in approvals) and the one-shot exchange a hook makes
// (AskOnce, ReportOnce).
//
// A hook runs on every tool call, so this package stays out of everything
// whose start-up costs: it imports no policy engine (policy/kind names a
// request's kind), no TOML, no file watching and not the net package, whose
// cgo resolver makes every binary that links it start through the dynamic
// loader. The exchange is one connect, one write and one read on a unix
// socket.
//
// Package approvals owns the broker and re-exports these names
// (approvals.Request is wire.Request); code outside the hook path keeps
// using approvals.
//
// It must never fail open: every failure of the exchange is a deny saying
// why (AskOnce), and an answer that is not exactly one decision is one.
package wire
