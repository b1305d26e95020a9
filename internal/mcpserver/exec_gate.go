package mcpserver

import (
	"context"
	"strings"

	"github.com/sentinelhq/sentinel/policy"
)

// gateExec is exec's gate for line run in cwd, in the configured
// exec_mode: the rule that allowed it, or a refusal. The line is parsed
// once (policy.Read) and every step reads that parse: the gate engine's
// one walk gives the verdict, the Parts and the writes every mode's steps
// use, and allowlist mode walks it again with the built-in rules in the
// sandbox (gateAllowlist) — a second question, not a second parse.
func (s *Server) gateExec(ctx context.Context, line, cwd string) (string, error) {
	rd := policy.Read(line)
	if err := tooDeep("the command", rd); err != nil {
		return "", err
	}
	pctx := s.policyContext(cwd)
	// Files that run code later are the person's, as for the file tools
	// (runlater_exec.go), before any mode's gate asks anyone. Unrestricted
	// mode runs any program, so reading its line cannot hold them: the
	// sandbox holds those that exist read-only in every mode (newLaterHold).
	if s.cfg.ExecMode == ModeUnrestricted {
		if err := unrestrictedLine(rd); err != nil {
			return "", err
		}
		v, _ := s.gate.judge(rd, pctx)
		return "exec_mode unrestricted (sandboxed)", refuseDenied(v)
	}
	if s.cfg.ExecMode != ModePolicy {
		// Policy mode has it from the engine: a value bash evaluates as
		// code asks there (policy/evalsink.go), as it does in runs.
		if err := evalSinkLine(rd); err != nil {
			return "", err
		}
	}
	v, w := s.gate.judge(rd, pctx)
	if err := s.execRunLater(line, cwd, v, w, s.cfg.ExecMode != ModePolicy); err != nil {
		return "", err
	}
	switch s.cfg.ExecMode {
	case ModePolicy:
		return s.gate.decide(ctx, line, pctx, v)
	case ModeStrict:
		if err := strictLine(rd); err != nil {
			return "", err
		}
	}
	return s.allowlistDecide(rd, cwd, v)
}

// allowlistDecide is allowlist (and strict) mode: the policy's deny first
// (v, the gate engine's verdict), then an entry for every command.
func (s *Server) allowlistDecide(rd *policy.Reading, cwd string, v policy.Verdict) (string, error) {
	if err := refuseDenied(v); err != nil {
		return "", err
	}
	used, err := s.cfg.gateAllowlist(rd, cwd)
	if err != nil {
		return "", err
	}
	if len(used) == 0 {
		return "allowed_commands (read-only filters and shell grammar only)", nil
	}
	return "allowed_commands " + strings.Join(used, ", "), nil
}

// evalSinkLine refuses a line in which bash would evaluate a value as
// code that no word of the line spells (policy.EvalSink: x='a[$(id)]';
// ls $((x)) runs id): the allowlist, strict mode and the policy judge the
// commands a line spells, and this one is in a string.
func evalSinkLine(rd *policy.Reading) error {
	if why := rd.EvalSink(); why != "" {
		return &Refusal{Class: ClassNotAllowed, Rule: "shell evaluation", Reason: why,
			Use: "write the value out literally (no variable in $(( )), [[ -eq ]], a subscript, ${!x} or ${x@P})"}
	}
	return nil
}

// tooDeep refuses a line the engine's parse refused for its depth
// (policy.TooDeepError: brackets or compound commands nesting over 256
// before parsing, a syntax tree over 4096 levels after). The engine asks
// about such a line on its own; the gate says so as an unparseable
// refusal first, naming what was too deep, so a client learns what to change.
func tooDeep(what string, rd *policy.Reading) error {
	td := rd.TooDeep()
	if td == nil {
		return nil
	}
	use := "nest less deeply"
	if td.Parsed {
		use = "split it into shorter commands"
	}
	return &Refusal{Class: ClassUnparseable, Rule: "shell nesting", Reason: what + " " + td.Detail(), Use: use}
}
