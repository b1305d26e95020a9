package approvals

import "github.com/sentinelhq/sentinel/approvals/wire"

// What adapters outside this package (the hook dialects in runner/hooks and
// beside each adapter) need to build requests and answers in the broker's
// own terms, without a second copy of its rules.

// CheckReport says why the broker would refuse a report from its socket,
// or nil.
func CheckReport(r Report) error { return checkReport(r) }

// DenyBy is a deny by `by` (see Decision.By) for reason, with the message
// an agent shows the model: "Sentinel denied this: <reason>".
func DenyBy(by, reason string) Decision { return wire.DenyBy(by, reason) }

// QuoteArgv writes argv as one shell line, single-quoting each word that
// is empty or holds a shell metacharacter.
func QuoteArgv(argv []string) string { return wire.QuoteArgv(argv) }
