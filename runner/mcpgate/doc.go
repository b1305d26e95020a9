// Package mcpgate owns the MCP gate: a proxy Sentinel puts between a coding
// agent and one of the person's stdio MCP servers, so that every tool call
// to that server is decided by the run's broker (policy, templates, then a
// person or supervisor) whatever the agent itself would ask about.
//
// The agent starts `sentinel mcp-gate --server NAME -- CMD [ARG...]` in
// place of the server's own command. The gate starts CMD and copies
// newline-delimited JSON-RPC between the two:
//
//   - agent → server: each line is parsed and forwarded in the form the gate
//     parsed (so the server can never read a message differently from the
//     gate: duplicate keys are gone). A "tools/call" request is first asked
//     about as a broker request of kind mcp, tool mcp__<server>__<tool>;
//     allowed, it is forwarded; denied, the gate answers it itself with an
//     MCP tool result that is an error carrying Sentinel's reason, and the
//     server never sees it. A batch (a JSON array) is judged element by
//     element. Anything the gate cannot read — a line that is not JSON, a
//     tools/call without a tool name or without an id — is not forwarded:
//     it fails closed (a parse error answers a garbled line).
//   - server → agent: passed through untouched.
//
// Any failure to reach the broker is a deny. The broker journals each
// request and its decision like every other tool call.
//
// It must not decide anything itself: it only asks and carries out.
package mcpgate
