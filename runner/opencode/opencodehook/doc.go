// Package opencodehook is opencode's hook dialect: what Sentinel's plugin
// for opencode (runner/opencode, plugin.js) sends to `sentinel hook
// opencode` and the answer it reads back. It stays light — a hook runs once
// per tool call — and imports only runner/hooks and approvals/wire. It must
// not decide anything (the broker does), and a payload it cannot read is an
// error, which the hook answers with a deny.
package opencodehook
