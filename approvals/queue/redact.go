package queue

import (
	"regexp"
	"sync"
)

// secretShapes are the shapes of secrets a request's summary may carry
// (a token on a command line, credentials in a URL, an assignment to a
// variable named like a secret). Redact replaces them before a summary
// leaves the service for a notification.
// They are compiled on first use: sentinel's every start (a sandboxed
// command's, a hook's) would otherwise pay for them.
var secretShapes = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		// NAME=value where the name says it holds a secret
		regexp.MustCompile(`(?i)\b([A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?|AUTH)[A-Z0-9_]*)=("[^"]*"|'[^']*'|\S+)`),
		// Authorization headers
		regexp.MustCompile(`(?i)(authorization:\s*(?:bearer|basic|token)?\s*)\S+`),
		// user:password@ in a URL
		regexp.MustCompile(`(?i)([a-z][a-z0-9+.-]*://[^/\s:@]+:)[^@\s/]+@`),
		// well-known token prefixes
		regexp.MustCompile(`\b(?:sk-[A-Za-z0-9_-]{16,}|sk-ant-[A-Za-z0-9_-]{16,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|AKIA[0-9A-Z]{16}|xox[baprs]-[A-Za-z0-9-]{10,}|glpat-[A-Za-z0-9_-]{20,}|AIza[0-9A-Za-z_-]{30,})\b`),
		// --password VALUE, --token=VALUE and the like
		regexp.MustCompile(`(?i)(--?(?:password|passwd|token|secret|api-?key|access-?key)[= ])("[^"]*"|'[^']*'|\S+)`),
	}
})

const redacted = "[redacted]"

// Redact replaces what looks like a secret in s.
func Redact(s string) string {
	shapes := secretShapes()
	s = shapes[0].ReplaceAllString(s, "${1}="+redacted)
	s = shapes[1].ReplaceAllString(s, "${1}"+redacted)
	s = shapes[2].ReplaceAllString(s, "${1}"+redacted+"@")
	s = shapes[3].ReplaceAllString(s, redacted)
	s = shapes[4].ReplaceAllString(s, "${1}"+redacted)
	return s
}
