// Package shellscope keeps the commands an agent starts in place from
// signalling the agent, its hooks and the hooks' guard: a wall around the
// gate, where runner/hookclient's guard alone is not one (a command that
// kills the guard, `kill -9 -1`, `pkill -f 'hook codex'`, a background
// killer loop an approved command leaves, or SIGSTOP of the guard, got the
// next call run before the broker's bypass watch stopped the run).
//
// How: inside the Linux sandbox the system shells (bash, sh/dash, zsh) are
// shown as a wrapper (Places: sentinel-helper, or the sentinel binary when
// the helper is absent, over each shell's real file) and the real shells
// at RealDir+their path. Codex starts every command and hook as /bin/bash
// (the passwd shell) or the system shell of the kind the model names,
// ignoring $SHELL and PATH; Claude Code and opencode start them with
// $SHELL; Gemini CLI with the bash first on PATH. A shell of those outside
// /bin and /usr/bin (a passwd shell or $SHELL under /usr/local, a bash
// first on PATH) is shown as the wrapper too (runner, Covers). The
// wrapper (Main) enters a new Landlock domain scoped for signals
// (LANDLOCK_SCOPE_SIGNAL, ABI 6, no privilege) and execs the real shell
// with its own argv and environment. A process in that domain gets EPERM
// signalling anything outside it: the agent, the hooks (each started
// through its own shell, so each in its own sibling domain), the guard,
// stage 1 — `kill -9 -1` included. The agent, in the outer domain, can
// still signal (stop, kill) the commands it started.
//
// The agent's state is the agent's: when the sandbox's plan names agent
// state (sandbox.Profile.AgentState: Claude Code's config dir, Codex's
// CODEX_HOME, in place), the same domain also handles the file-system
// write rights (write, truncate, remove, make, refer and device ioctl, as
// the ABI has them) and grants them under every root the sandbox makes
// writable except the state dirs (WriteRoots). So no command can write a
// transcript, a session or a rollout — not by appending, truncating, a
// hard link or rename into the state, a link out of it, nor a symlink
// swap — and what the agent itself writes there is all that is: the
// person's later `claude --continue` or `codex resume` acts on the
// agent's own record. The plan is read from stage 1's argv
// (/proc/1/cmdline: stage 1 runs outside the sandbox's Landlock domain,
// so no command can ptrace it or rewrite its memory); a plan without
// agent state handles no file right. The hooks an agent starts through a
// shell are commands in this sense: they cannot write its state either.
//
// A program the agent starts without a shell (a stdio MCP server, a
// language server) would sit in the agent's own domain, from which it
// may signal every hook; the run's configs start each such server the
// person or the project configured through /bin/sh
// (agentutil.ScopedArgv), so it enters a scope of its own too.
//
// When it enters: only when the shell is not already below a scope — no
// ancestor but pid 1 (the sandbox's stage 1) refuses a signal 0. That is a
// shell the agent (or its hook runner) started; a shell a command starts
// (make's sh -c, a script's bash) stays in its command's domain, so one
// command's processes still signal each other as before. It reads no
// environment variable and no file the coder could write (stage 1's argv
// is the sandbox's), so a coder cannot make the agent's next shell skip
// the scope or its write rules; a coder that runs the
// real shell at RealDir directly is still in its own command's domain.
//
// Pid exhaustion (pids_linux.go): the agent, its hooks and its commands
// share the sandbox's pids limit, so a command that fills it makes the
// agent's next hook fail to start, and Codex then runs that call. Before
// it enters a scope, the wrapper reads the sandbox's pids.events: once the
// limit has refused any start, an agent-started shell runs no command
// (exit 126, saying why) for the rest of the run; only the agent's exact
// hook command (this program, "hook", the agent) still runs. And a
// command's shell gets a RLIMIT_NPROC (hard too) a sixteenth below the
// agent's, so where no pids cgroup bounds the sandbox (not root) the
// agent keeps starts for its hooks.
//
// Calls Landlock does not scope (seccomp_linux.go): a command could lower
// the agent's RLIMIT_NPROC or RLIMIT_NOFILE (prlimit64) so its next hook
// fails to start, or starve it and its hooks (nice 19, SCHED_IDLE, the
// idle I/O class) past a hook timeout. An agent-started shell also gets a
// seccomp filter that answers EPERM to prlimit64 setting, setpriority,
// sched_setscheduler/setparam/setattr and ioprio_set on any process but
// the caller (pid 0).
//
// The cost, by design: a command cannot signal what an earlier command
// started (a dev server started by call 1 cannot be stopped by `pkill -f
// vite` in call 2); the agent's own kill of a background shell still
// works (it is the outer domain). And every shell start in the sandbox,
// make's sh -c per recipe line included, pays for one more program start
// (a Go binary): measured at load 11 on 2 cores, 20.1 ms of CPU for an
// agent-started `bash -c true` against 10.0 for the real bash, and 16.8
// against 8.2 for `sh -c true` inside a command (200 each,
// docs/measure/shellscope.sh). A kernel without Landlock ABI 6 gets no
// wrapper, and the run's journal says so (runner).
package shellscope
