// Package claude is the runner's adapter for Claude Code (`--coder claude`):
// the argv that starts the real claude CLI with Sentinel's hooks injected
// for that session only, the environment, sandbox needs (state paths,
// environment names, hosts) and, for headless mode, the stream-json encoder
// for the task and steering and the decoder for its output lines.
//
// Hooks that cannot be switched off by the repository or the coder (all
// verified against 2.1.332 with the fake model): Claude Code merges settings
// from the user, project and local files and from --settings, and
//   - "disableAllHooks": true in .claude/settings.json (or settings.local.json,
//     or ~/.claude/settings.json) turns off every hook, ours from --settings
//     included;
//   - "env": {"CLAUDE_CODE_SIMPLE": "1"} (what --bare sets) or
//     CLAUDE_CODE_SAFE_MODE in a settings file does the same;
//   - a repository's own hooks run as commands without any approval.
//
// Under the Linux sandbox (RunPaths.Placed) the adapter writes a managed
// policy (ManagedSettings) into the run directory and the sandbox shows it,
// read-only, at ManagedSettingsPath, Claude Code's highest-precedence
// source; nothing the coder can write reaches it. Measured with 2.1.332:
// with allowManagedHooksOnly only its hooks run (a repository's or the
// person's hooks never do, and disableAllHooks or CLAUDE_CODE_SIMPLE in
// any settings file does not stop them; hooks in --settings do not run
// then either); a settings deny rule outranks a hook's "allow"; when a
// hook fails (exit 1) an allow rule lets the call run, so
// allowManagedPermissionRulesOnly keeps every file's allow rules out and
// the person's and the repository's deny rules are copied into the policy.
// --managed-settings (the SDK "parent" tier) was tried instead: its hooks
// did not run. With the policy in place every settings file is read
// (--setting-sources user,project,local): the person's CLAUDE.md, commands,
// skills, agents (copied read-only into the per-run config dir), their
// settings env (PersonalSettings keeps env and a few display keys, never
// hooks, rules or helper commands), the repository's CLAUDE.md and
// .claude/ files, and MCP servers from ~/.claude.json (user-level, and the
// person's entry for the real project given to the workspace: MapProject)
// reach the model, and MCP tool calls come through the hook like any other.
// Every stdio server starts through the system shell, so in place it enters
// a signal scope (mcp_scope.go); the host's managed-mcp.json is shown
// rewritten the same way (managed_mcp.go); the policy adds no plugin
// marketplace (strictKnownMarketplaces empty), so a repository's plugin
// starts no server of its own; its env names the run's shell (SHELL,
// CLAUDE_CODE_SHELL: managed_shell.go), so a settings file's env cannot
// have Claude Code start a program of the project as its shell (which it
// does with no hook asked about it).
//
// Without the sandbox (--sandbox off) or on macOS no policy can be placed:
// the adapter passes --setting-sources "" (no settings file is read; with
// Options.UserSettings, "user") and puts "disableAllHooks": false and env
// CLAUDE_CODE_SIMPLE=0, CLAUDE_CODE_SAFE_MODE=0 in --settings, which
// outranks every file, with the person's settings env and deny rules under
// them; the person's and the repository's CLAUDE.md go in the appended
// system prompt; their MCP servers (user-level and the project's) in
// --mcp-config. Commands, skills and agents do not reach the model then
// (measured). The --settings hooks and counters are passed in
// both cases: should a higher administrator source (server-managed
// settings) displace the placed file, Sentinel's hooks still run. (Each
// counter alone beat the attacks above; with it, a repository's own hooks
// run again when no policy is placed — measured — so the sandbox is then
// the only gate for them.) When several PreToolUse hooks answer, a deny
// wins over another hook's allow. CLAUDE_CODE_SIMPLE=1 in the process
// environment was overridden by the --settings env too; still, DropEnv names
// what must never be passed to the coder. (CLAUDE_CODE_PERSONAL_HOOKS_OFF,
// CLAUDE_CODE_DISABLE_HOOK_FORWARDING and CLAUDE_CODE_RESTRICT_PERSONAL_CONFIG
// were tried too: they left our hooks on.)
//
// The coder is told where it runs (agentutil.WhereAmI, RunPaths.SystemPrompt)
// through --append-system-prompt. Headless runs set
// MCP_CONNECTION_NONBLOCKING=false: by default 2.1.332 connects MCP servers
// in the background and the first turns went out without their tools.
//
// Subagents (the Task tool, "Agent" in hook payloads) run their own tool
// loop in the background; their tool calls come through the same PreToolUse
// hook (tested).
//
// Headless mode needs stdin to be a pipe: `claude -p` refuses a terminal on
// stdin ("Input must be provided either through stdin or as a prompt
// argument"), even with --input-format stream-json. Its stdout may be the
// pty (Decoder copes with \r\n and lines split across reads). It does not
// exit after its result line while stdin is open: close stdin to end it.
//
// State: with Options.ConfigDir every write Claude Code makes lands in one
// per-run directory (CLAUDE_CONFIG_DIR), filled from the person's state by
// PrepareConfigDir; without it, it writes ~/.claude/ and temp and lock files
// directly in home (see StatePaths).
//
// Its hook dialect (claudehook: HookDialect, HookAnswer; a package of its own, so
// a hook links none of this adapter) is what `sentinel hook claude` reads
// and answers: the shared payload shape (runner/hooks) for PreToolUse,
// PermissionRequest, PostToolUse, PostToolUseFailure, Stop, StopFailure
// and Notification; hookSpecificOutput with a
// permissionDecision (or a PermissionRequest decision) back, a deny also
// exiting 2; Sentinel's notes as a tool-result hook's additionalContext.
//
// It must not start processes (the runner does), draw anything, or decide
// policy: every decision comes from the broker through `sentinel hook claude`.
package claude
