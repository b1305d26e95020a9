// Package acp drives any agent that speaks the Agent Client Protocol
// (`gemini --acp`, `opencode acp`, the ACP adapters for Claude Code and
// Codex) as Sentinel's coder, with Sentinel as the ACP client:
//
//   - session/request_permission becomes broker requests (a shell command,
//     file writes, reads, fetches); the answer is the agent's own option of
//     the matching kind. A remembered grant is kept by Sentinel as a template
//     and answered allow_once, never allow_always: an agent's "always" is
//     its own rule (Gemini's covers every command with the same first word)
//     and later calls would no longer reach Sentinel or its journal.
//   - session/update feeds the coder lane (messages, plans) and the tool
//     lane (tool calls and their results).
//   - fs/read_text_file and fs/write_text_file are served from the workspace
//     only, through os.Root (no path or symlink leaves it); a write the agent
//     did not get permission for first goes to the broker as its own request.
//   - terminal/* is refused: commands run in the agent's own sandboxed
//     process, where Sentinel's sandbox confines them.
//   - An agent only asks about what it is set to ask about: a session that
//     starts in an auto-approving mode is set to "default", and what one
//     agent needs beyond the protocol is its entry's (coder.ACPGuest,
//     given to New from runner/agents): its command and environment, its
//     part of a per-run home made from the person's (logins copied,
//     settings rewritten so nothing in them answers a permission request
//     in Sentinel's place, global instructions kept, Sentinel's
//     where-am-I text added through its own mechanism), and whether its
//     workspace can be trusted. This package knows no agent by name:
//     opencode's needs are in runner/opencode (acp.go), Gemini CLI's in
//     runner/geminicli (acp.go, acp_mcp.go, settings.go).
//   - The person's MCP servers come along and every call to them is
//     decided by Sentinel: the entry's PrepareHome starts stdio servers
//     behind Sentinel's MCP gate (runner/mcpgate; MCPGate, given by
//     SetRun), remote servers are kept off.
//
// Steering cancels the running prompt turn and sends the message as the
// next prompt; the reasons for denials reach the agent as one follow-up
// prompt when its turn ends. The session ends when a turn ends with nothing
// left to say.
//
// It must not decide anything itself (every decision is the broker's), must
// never answer a permission request with an allow the broker did not give,
// and must not import runner.
package acp
