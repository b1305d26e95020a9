// Package codex is the runner's adapter for OpenAI Codex (`--coder codex`),
// driven as `codex app-server`: JSON-RPC over the process's stdin and stdout
// (JSON-RPC 2.0 without the "jsonrpc" field, one object per line), with
// Sentinel as the client.
//
// A Session initializes the app-server, starts one thread in the workspace
// with the task, and routes every approval request Codex sends
// (item/commandExecution/requestApproval, item/fileChange/requestApproval,
// and the older execCommandApproval / applyPatchApproval) through the
// broker: kind shell with the command and cwd, kind write (new file) or edit
// with each path of a file change. The answer is accept, acceptForSession
// when the decision has Remember, or decline. Every other server request
// (permission grants, user input, dynamic tools) is refused.
//
// Choices, measured with Codex 0.171.0 and the fake Responses server
// (internal/fakeresponses):
//   - approvalPolicy "untrusted" on thread/start (config.toml may no longer
//     say "untrusted": 0.171 exits with "approval_policy = \"untrusted\" is no
//     longer supported"). With it, ls, cat and git status were asked about
//     too, and every apply_patch. ExecPolicyRules add "prompt" rules for the
//     commands Codex calls safe, in case a version stops asking. Start refuses
//     a thread that does not report this policy back.
//   - sandbox "danger-full-access": Sentinel's sandbox is the boundary;
//     Codex's own would be nested inside it. With it, CODEX_HOME under /tmp
//     works (AGENTS.md's warning is about Codex's own sandbox helper).
//   - Codex reports each command as `/bin/bash -lc '<cmd>'`; the broker is
//     asked about <cmd> (UnwrapShell, on the policy's own shell reader),
//     else the policy sees only a login shell.
//   - decline has no reason field. The reason reaches the model as a
//     turn/steer user message sent before the decline is answered; the next
//     model request carries Codex's own "rejected by user" output and that
//     message. acceptForSession makes Codex skip asking again for the same
//     command in this thread (tested): the broker does not see the repeat.
//   - File change approvals name only the item: its paths come from the
//     fileChange item's item/started notification, which precedes it.
//   - A repository's .codex/config.toml (approval_policy = "never", another
//     provider, hooks on) did not take over (tested).
//   - Codex wrote only into CODEX_HOME (config, rules, sqlite state, session
//     rollouts, skills) and the workspace; nothing in HOME.
//   - config.toml turns off hooks (they run without approval), plugins and
//     apps (they reach github.com and chatgpt.com at start), subagents, and
//     non-coding tools (DisabledFeatures).
//
// The person's own setup (Prepare, NewPlan; measured with 0.171.0):
//   - Their CODEX_HOME ($CODEX_HOME or ~/.codex) is only read. The run's
//     config.toml is rebuilt from a whitelist of their settings (model,
//     model_provider and its [model_providers] table, reasoning and project
//     doc settings, developer_instructions, MCP servers) with Sentinel's
//     values on top; their auth.json (when the provider uses it) and
//     AGENTS.md / AGENTS.override.md are copied. A custom provider's
//     env_key (and env_http_headers) variables pass into the sandbox and
//     are kept out of the coder's commands (shell_environment_policy
//     exclude: Codex's default excludes only *KEY*/*SECRET*/*TOKEN* names);
//     its base_url host is allowed by the proxy.
//   - With the person's whole file kept, their notify command ran after the
//     turn (tested); thread/start's approvalPolicy still beat their
//     approval_policy = "never". A config.toml that selects a profile is
//     refused by 0.171.0 ("legacy `profile` config is no longer
//     supported"); profiles are never read or copied.
//   - approvals_reviewer "auto_review" would let a Codex subagent decide
//     approvals: it is forced to "user" in config.toml and on thread/start,
//     and Start refuses a thread that reports another reviewer.
//   - MCP tool calls ask through mcpServer/elicitation/request with
//     _meta.codex_approval_kind = "mcp_tool_call" (server, tool_name,
//     tool_params); they go to the broker as kind mcp, tool
//     mcp__<server>__<tool>, answered {"action":"accept"|"decline"}. A tool
//     annotated readOnlyHint, or set to approval_mode "approve", ran with no
//     request at all until each server got default_tools_approval_mode and
//     every tools.<name>.approval_mode = "prompt" (tested both ways). MCP
//     tools are deferred behind tool_search; the model calls them as
//     function calls in namespace "mcp__<server>".
//   - The where-am-I text goes in developer_instructions, after the
//     person's own; the global AGENTS.md reaches the model's first request.
//
// Its hook dialect (codexhook, a package of its own) is what `sentinel
// hook codex` reads and answers: Claude-shaped payloads (runner/hooks; a
// command given as an argv `bash -lc SCRIPT` is judged as SCRIPT where the
// policy's reader finds it, by the broker: approvals.ShellCommand) answered
// in Claude Code's format (claudehook.HookAnswer), an allow as silence.
// Runs of `--coder codex` never use it: their config.toml turns hooks off.
// `sentinel exec -- codex …` (Mode Interactive, inplace.go) does: the
// person's own command line under the pty, the same per-run CODEX_HOME, and
// Sentinel's hook on every tool call as Codex's managed requirements, the
// only hooks that run.
//
// It must not decide policy (the broker does), draw anything, or start the
// sandbox: the runner passes the sandboxed *exec.Cmd to Start (or runs the
// interactive command line under its pty).
package codex
