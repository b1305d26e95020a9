package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/internal/mcpserver/sudoedit"
	"github.com/sentinelhq/sentinel/policy"
)

// gateExec is exec's gate for line run in cwd, in the configured
// exec_mode: the rule that allowed it, or a refusal. The line is parsed
// once (policy.Read) and every step reads that parse: the gate engine's
// one walk gives the verdict, the Parts and the writes every mode's steps
// use, and allowlist mode walks it again with the built-in rules in the
// sandbox (gateAllowlist) — a second question, not a second parse.
func (s *Server) gateExec(ctx context.Context, line, cwd string) (string, error) {
	if err := tooDeepToParse("the command", line); err != nil {
		return "", err
	}
	rd := policy.Read(line)
	if rd.DeeperThan(maxSyntaxDepth) {
		return "", tooDeepTree("the command")
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

// tooDeepToParse refuses shell text that nests deeper than
// sudoedit.MaxNesting before the shell parser sees it: the parser
// recurses once a level, and `(` or `$(` repeated a few hundred thousand
// times (a 3 MB exec line, a 1 MiB script) overflowed the goroutine stack
// and killed the server (fatal, not recoverable) with every session on it.
func tooDeepToParse(what, text string) error {
	switch sudoedit.TooDeep([]byte(text), true) {
	case "":
		return nil
	case "brackets":
		return &Refusal{Class: ClassUnparseable, Rule: "shell nesting", Reason: fmt.Sprintf("%s nests brackets or parentheses more than %d deep (counted outside quoting too); it is refused before it is parsed", what, sudoedit.MaxNesting), Use: "nest less deeply"}
	default:
		return &Refusal{Class: ClassUnparseable, Rule: "shell nesting", Reason: fmt.Sprintf("%s nests compound commands (if, while, for, case...) more than %d deep; it is refused before it is parsed", what, sudoedit.MaxNesting), Use: "nest less deeply"}
	}
}

// maxSyntaxDepth bounds how deep a parsed line's syntax tree may be
// before anything walks it (a bracket level is two to four levels of it).
const maxSyntaxDepth = 4096

// tooDeepTree refuses a line whose syntax tree is deeper than
// maxSyntaxDepth: `ls && ` or `+1` inside $(( )) repeated 300,000 times
// parses without one bracket, and the policy's walk of it overflowed the
// goroutine stack and killed the server.
func tooDeepTree(what string) error {
	return &Refusal{Class: ClassUnparseable, Rule: "shell nesting", Reason: fmt.Sprintf("%s chains or nests more than %d levels deep (&&, ||, |, arithmetic operators...); it is refused before it is judged", what, maxSyntaxDepth), Use: "split it into shorter commands"}
}
