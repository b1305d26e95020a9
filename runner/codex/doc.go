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
// It must not decide policy (the broker does), draw anything, or start the
// sandbox: the runner passes the sandboxed *exec.Cmd to Start.
package codex
