// Package geminicli is Gemini CLI's folder: its Agent entry, its adapter
// for Gemini run as itself — its own full-screen session or `gemini -p` —
// under `sentinel exec`, with Sentinel's approval hooks (their dialect in
// geminihook), and what it needs over ACP when `sentinel run --coder acp`
// drives `gemini --acp` through runner/acp (acpGuest: acp.go, acp_mcp.go;
// the person's settings made to ask first, settings.go, shared by both). Every tool call goes through a BeforeTool hook to the run's
// broker (policy, remembered templates, the person or the queue); AfterTool
// and AfterAgent journal what ran and when a turn ended.
//
// What Gemini CLI (0.61.0) does, measured with the real binary and the fake
// Gemini API (internal/fakegemini), and what the adapter does about it:
//
//   - A BeforeTool hook answering {"decision": "deny", "reason"} blocks the
//     call and hands the reason to the model ("Tool execution blocked: …").
//     Its "allow" does not skip Gemini's own confirmation: in the default
//     approval mode the interactive session would ask again after
//     Sentinel, and `gemini -p` leaves out every tool that needs a
//     confirmation (run_shell_command is "not found"). So the adapter starts
//     Gemini with --approval-mode yolo (the only way to it: settings cannot
//     set yolo), which the hook still sees every call of: Sentinel's chain
//     is the one gate. A person who gives their own --approval-mode or
//     --yolo keeps it (a second prompt after Sentinel's, or none).
//   - Gemini fails open on a broken hook: a hook that exits 1, is killed,
//     prints something that is not JSON, or times out lets the call run
//     (only exit status 2, or a JSON deny, blocks). So the hook command is a
//     small shell wrapper around `sentinel-helper hook gemini`
//     (HookCommand): anything but the helper's own well-formed allow (exit
//     0) or deny (exit 2) — a crash, a missing helper, garbage, an error
//     status — is answered with a deny of its own, exit 2. Gemini's own
//     timeout (HookTimeout) is above the helper's, which denies first.
//     Every deny exits 2 (the JSON says so too), which blocks even if the
//     answer could not be read; Gemini's screen then also says "Hook(s)
//     [sentinel] failed", which only means that.
//   - Settings come from a per-run home (GEMINI_CLI_HOME; the person's HOME
//     stays theirs): their settings made to ask first (ForceSettings:
//     their hooks, allowed tools, policy files and yolo switches dropped),
//     then Sentinel's hooks and hooks switched on; their logins and global
//     GEMINI.md copied in, with Sentinel's where-am-I text.
//   - The project's .gemini/ (settings that outrank the person's and can
//     switch every hook off, its own hooks, which could rewrite a call
//     Sentinel approved, policies, commands, a .env) is read only in a
//     trusted workspace, and `gemini -p` refuses an untrusted one. Under
//     the Linux sandbox the project's .gemini/ is hidden (an empty
//     read-only directory; made for the run when missing and removed after
//     it) and the workspace trusted; without it the workspace stays
//     untrusted and --skip-trust is refused.
//   - An administrator's system settings (/etc/gemini-cli/settings.json)
//     outrank everything: when they switch hooks off, the run is refused.
package geminicli
