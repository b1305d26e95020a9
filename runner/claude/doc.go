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
// The adapter passes --setting-sources "" (no settings file is read; with
// Options.UserSettings, "user": only the person's file) and puts
// "disableAllHooks": false and env CLAUDE_CODE_SIMPLE=0, CLAUDE_CODE_SAFE_MODE=0
// in --settings, which outranks every file. Each counter alone beat the
// attacks above; both are kept. When several PreToolUse hooks answer, a deny
// wins over another hook's allow. CLAUDE_CODE_SIMPLE=1 in the process
// environment was overridden by the --settings env too; still, DropEnv names
// what must never be passed to the coder. (CLAUDE_CODE_PERSONAL_HOOKS_OFF,
// CLAUDE_CODE_DISABLE_HOOK_FORWARDING and CLAUDE_CODE_RESTRICT_PERSONAL_CONFIG
// were tried too: they left our hooks on.)
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
// It must not start processes (the runner does), draw anything, or decide
// policy: every decision comes from the broker through `sentinel hook claude`.
package claude
