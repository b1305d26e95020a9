package policy

import "strings"

// Coding agents' own command lines (claude, codex, gemini, aider): another
// agent started from the coder's shell runs commands the policy never
// sees. Started with the flag that turns its own approvals and sandbox
// off (claude --dangerously-skip-permissions or --permission-mode
// bypassPermissions, codex --dangerously-bypass-approvals-and-sandbox,
// --yolo or a danger-full-access sandbox, gemini --yolo or
// --approval-mode yolo, aider --yes-always) it is an escape from the
// person's control: denied as sudo is. Any other start asks, as an
// unknown program does.

// agentBypass reports the flag of args (an agent's argv) that turns its
// approvals or sandbox off, or "".
func agentBypass(args []word) string {
	prog := args[0].val
	for i := 1; i < len(args); i++ {
		v := args[i].val
		name, val, has := strings.Cut(v, "=")
		if !has && i+1 < len(args) {
			val = args[i+1].val
		}
		switch prog {
		case "claude":
			if name == "--dangerously-skip-permissions" || name == "--allow-dangerously-skip-permissions" ||
				name == "--permission-mode" && strings.EqualFold(val, "bypassPermissions") {
				return v
			}
		case "codex":
			if name == "--dangerously-bypass-approvals-and-sandbox" || name == "--yolo" ||
				(name == "-s" || name == "--sandbox") && val == "danger-full-access" ||
				(name == "-c" || name == "--config") && strings.Contains(strings.ReplaceAll(val, " ", ""), `sandbox_mode="danger-full-access"`) ||
				(name == "-c" || name == "--config") && strings.Contains(val, "sandbox_mode=danger-full-access") {
				return v
			}
		case "gemini":
			if name == "--yolo" || name == "-y" || name == "--approval-mode" && val == "yolo" {
				return v
			}
		case "aider":
			if name == "--yes-always" || name == "--yes" {
				return v
			}
		default:
			if otherAgentBypass(prog, name, val) { // agentcli_more.go
				return v
			}
		}
	}
	return ""
}

// addAgentCLIHandlers registers the coding agents' command lines.
func addAgentCLIHandlers(handlers map[string]handler) {
	for _, n := range []string{"claude", "codex", "gemini", "aider"} {
		handlers[n] = agentCLICmd
	}
	for n := range otherAgentCLIs.get() { // agentcli_more.go
		if handlers[n] == nil {
			handlers[n] = agentCLICmd
		}
	}
}

func agentCLICmd(x *cmdCtx, args []word) {
	if flag := agentBypass(args); flag != "" {
		x.add(Deny, RuleToolExec, args[0].val+" "+flag+" starts a coding agent with its own approvals and sandbox off")
		return
	}
	x.add(Ask, RuleUnknownCommand, args[0].val+" starts a coding agent, whose commands the policy does not see")
}
