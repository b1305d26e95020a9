package mcpserver

import (
	"context"
	"strings"
)

// gateExec is exec's gate for line run in cwd, in the configured
// exec_mode: the rule that allowed it, or a refusal.
func (s *Server) gateExec(ctx context.Context, line, cwd string) (string, error) {
	// Files that run code later are the person's, as for the file tools
	// (runlater_exec.go), before any mode's gate asks anyone. Unrestricted
	// mode runs any program, so reading its line cannot hold them: the
	// sandbox holds those that exist read-only in every mode (newLaterHold).
	if s.cfg.ExecMode != ModeUnrestricted {
		if err := s.execRunLater(line, cwd, s.cfg.ExecMode != ModePolicy); err != nil {
			return "", err
		}
	}
	var rule string
	var err error
	switch s.cfg.ExecMode {
	case ModePolicy:
		rule, err = s.gate.decide(ctx, line, s.policyContext(cwd))
	case ModeUnrestricted:
		rule = "exec_mode unrestricted (sandboxed)"
		if err = unrestrictedLine(line); err == nil {
			err = s.gate.refuseDenied(line, s.policyContext(cwd))
		}
	case ModeStrict:
		if err = strictLine(line); err != nil {
			break
		}
		fallthrough
	default:
		err = s.allowlistDecide(line, cwd, &rule)
	}
	return rule, err
}

// allowlistDecide is allowlist (and strict) mode: the policy's deny first,
// then an entry for every command.
func (s *Server) allowlistDecide(line, cwd string, rule *string) error {
	if err := s.gate.refuseDenied(line, s.policyContext(cwd)); err != nil {
		return err
	}
	used, err := s.cfg.gateAllowlist(line, cwd)
	if err != nil {
		return err
	}
	*rule = "allowed_commands " + strings.Join(used, ", ")
	if len(used) == 0 {
		*rule = "allowed_commands (read-only filters and shell grammar only)"
	}
	return nil
}
