package mcpserver

import (
	"fmt"
	"strings"

	"github.com/sentinelhq/sentinel/policy"
)

// strictLine refuses anything but one simple command in strict mode: no
// lists (; && ||), pipes, background jobs, subshells or groups, command or
// process substitutions, redirections, NAME=value prefixes, negation, or a
// shell's script run through sh -c. What is left then still needs an
// allowed_commands entry (gateAllowlist). rd is the line's one parse.
func strictLine(rd *policy.Reading) error {
	line := rd.Text()
	refuse := func(why string) error {
		return &Refusal{Class: ClassNotSimple, Rule: "exec_mode strict", Reason: why,
			Use: "send one plain command per exec call (no ; && || | & ( ) $( ) ` < >), or use the file tools to read and write files"}
	}
	trimmed := strings.TrimSpace(line)
	if strings.ContainsAny(line, "\n\r") {
		return refuse("the command holds more than one line")
	}
	if strings.HasSuffix(trimmed, ";") || strings.HasSuffix(trimmed, "&") {
		return refuse(fmt.Sprintf("%q ends in a list operator", trimmed))
	}
	l, err := rd.Line()
	if err != nil {
		return &Refusal{Class: ClassUnparseable, Rule: "shell syntax", Reason: err.Error(), Use: "fix the quoting; one plain shell command"}
	}
	if len(l.Stmts) != 1 {
		return refuse(fmt.Sprintf("%q holds %d commands", trimmed, len(l.Stmts)))
	}
	s := l.Stmts[0]
	switch {
	case s.Async:
		return refuse(fmt.Sprintf("%q runs in the background", s.Text))
	case s.Op != "":
		return refuse(fmt.Sprintf("%q joins commands with %s", s.Text, s.Op))
	case s.Cmd == nil:
		return refuse(fmt.Sprintf("%q is not a simple command (a subshell, group, loop, test or function)", s.Text))
	case s.Negated:
		return refuse(fmt.Sprintf("%q negates the command's status", s.Text))
	case len(s.Inner) > 0:
		return refuse(fmt.Sprintf("%q runs commands inside it (a $( ), backquote or <( ) substitution)", s.Text))
	case len(s.Cmd.Redirects) > 0:
		return refuse(fmt.Sprintf("%q redirects input or output", s.Text))
	case len(s.Cmd.Assigns) > 0:
		return refuse(fmt.Sprintf("%q sets variables (%s)", s.Text, strings.Join(s.Cmd.Assigns, " ")))
	}
	if _, ok := s.Cmd.Script(); ok {
		return refuse(fmt.Sprintf("%q runs a shell script", s.Text))
	}
	return nil
}

// unrestrictedLine is unrestricted mode's one check before the policy's
// deny: the line must parse (text no reader can read never runs). Every
// command then runs in the sandbox, confined to the configured paths, and
// is audited like any other call. rd is the line's one parse.
func unrestrictedLine(rd *policy.Reading) error {
	if strings.TrimSpace(rd.Text()) == "" {
		return &Refusal{Class: ClassBadInput, Reason: "the command is empty", Use: "give a command line"}
	}
	if _, err := rd.Line(); err != nil {
		return &Refusal{Class: ClassUnparseable, Rule: "shell syntax", Reason: err.Error(), Use: "fix the quoting"}
	}
	return nil
}
