package mcpserver

import "fmt"

// Class is what kind of refusal a call got, so the model can act on it.
type Class string

// The refusal classes.
const (
	ClassNotAllowed     Class = "not-allowed"      // a command no allowed_commands entry covers
	ClassMultiLine      Class = "multi-line"       // more than one line of input
	ClassPipeNotAllowed Class = "pipe-not-allowed" // a pipeline into something not allowed
	ClassPathNotAllowed Class = "path-not-allowed" // a path outside the configured paths
	ClassReadOnlyPath   Class = "read-only-path"   // a write to an r path
	ClassOpDisabled     Class = "op-disabled"      // the tool is in disabled_ops
	ClassBadPath        Class = "bad-path"         // not absolute, not a file, a loop
	ClassUnparseable    Class = "unparseable"      // the shell line could not be read
	ClassPolicyDeny     Class = "policy-deny"      // Sentinel's policy denied it (policy mode)
	ClassNoOneToAsk     Class = "no-one-to-ask"    // policy said ask and no person can be asked
	ClassValidation     Class = "validation"       // an edit failed its validation and was rolled back
	ClassBadInput       Class = "bad-input"        // arguments that do not make sense
	ClassNotFound       Class = "not-found"        // no such service, playbook, topic or text
	ClassLimit          Class = "limit"            // over a configured limit
	ClassURLNotAllowed  Class = "url-not-allowed"  // a URL upload_file will not fetch (SSRF guard)
	ClassNotSimple      Class = "not-simple"       // strict mode: more than one plain command
)

// Refusal is a classified error: the class, the rule that decided, why, and
// the right tool or fix to use instead.
type Refusal struct {
	Class  Class
	Rule   string
	Reason string
	Use    string
}

func (r *Refusal) Error() string {
	s := fmt.Sprintf("refused [%s]: %s", r.Class, r.Reason)
	if r.Rule != "" {
		s += " (rule: " + r.Rule + ")"
	}
	if r.Use != "" {
		s += ". Instead: " + r.Use
	}
	return s
}
