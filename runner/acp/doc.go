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
//     starts in an auto-approving mode is set to "default", and quirks.go
//     keeps the known agents (Gemini CLI, opencode) asking whatever the
//     repository's settings say.
//   - The person's own setup comes along in a per-run home (person.go):
//     logins copied, settings rewritten so nothing in them answers a
//     permission request in Sentinel's place (Gemini: yolo, tools.allowed,
//     hooks, trusted MCP servers; opencode: agent permissions, plugins),
//     their global instructions kept, and Sentinel's where-am-I text added
//     through each agent's own mechanism (GEMINI.md; opencode's
//     "instructions").
//   - The person's MCP servers come along and every call to them is
//     decided by Sentinel (mcp.go): opencode's stdio servers run behind
//     Sentinel's MCP gate (runner/mcpgate); Gemini asks about each MCP
//     call over ACP and its stdio servers run behind the gate too (its
//     question does not name the tool reliably), and its workspace is
//     trusted (so it starts MCP servers at all) only with the repository's
//     .gemini/ hidden inside the sandbox. Remote servers are kept off.
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
