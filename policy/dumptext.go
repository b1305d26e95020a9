package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// mayDumpText is the cheapest test: text that holds none of the words a
// dump is spelled with (a dump's name, or a wrapper's that could hide one
// in an unusual spelling like e\nv or {comp,}gen is decoded below) holds
// no dump.
func mayDumpText(t string) bool {
	for _, w := range []string{"env", "set", "compgen", "make", "ps", "jq", "yq", "php", "mvn", "systemctl", "tmux",
		"declare", "typeset", "export", "readonly", "local", "environ", "\\", "'", "\"", "$", "{"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// dumpHeads are the first words a dump can start with: the dumps and
// the wrappers stripDumpWrappers looks through (with every wrapper of
// wrappers.go's table, see mayDump).
var dumpHeads = wordSet{words: []string{"env", "printenv", "set", "compgen", "declare", "typeset", "export", "readonly", "local", "make", "gmake", "ps", "jq", "gojq", "yq",
	"cmake", "php", "mvn", "mvnw", "systemctl", "tmux", "sudo", "doas", "find", "xargs", "awk", "gawk", "mawk", "nawk", "goawk"}}

// mayDump is the cheap test before decoding: a literal first word that
// starts no dump and no literal word naming /proc/…/environ rule it out.
func mayDump(call *syntax.CallExpr) bool {
	if len(call.Args) == 0 {
		return false
	}
	head := call.Args[0].Lit()
	_, wrapper := wrapKinds.get()[head]
	if head == "" || strings.ContainsAny(head, "/\\") || dumpHeads.has(head) || wrapper || inlineEnvHead(head) {
		return true
	}
	found := false
	for _, a := range call.Args[1:] {
		syntax.Walk(a, func(n syntax.Node) bool {
			if l, ok := n.(*syntax.Lit); ok && strings.Contains(l.Value, "environ") {
				found = true
			}
			return !found
		})
	}
	return found
}

// shortFlags is the letters of a bundle of short options, stopping at
// the first that takes a value (make's -f, -C, -I, -j, -l, -o, -W).
func shortFlags(a string) string {
	a = a[1:]
	if i := strings.IndexAny(a, "fCIjloW"); i >= 0 {
		return a[:i]
	}
	return a
}

// containsWord reports w in s as a whole word (letters, digits, _).
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		before := j == 0 || !isIdentByte(s[j-1]) && s[j-1] != '.'                      // .env is a field
		after := j+len(w) == len(s) || !isIdentByte(s[j+len(w)]) && s[j+len(w)] != '"' // "env" is a string
		if before && after {
			return true
		}
		i = j + 1
	}
}

func isIdentByte(b byte) bool {
	return b == '_' || b == '$' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// dumpDecl reports declare/typeset/export/readonly/local printing
// variables: -p, or no names at all.
func dumpDecl(d *syntax.DeclClause) (string, bool) {
	names := 0
	p := false
	for _, a := range d.Args {
		if a.Naked && a.Name == nil && a.Value != nil {
			v := a.Value.Lit()
			if strings.HasPrefix(v, "-") || strings.HasPrefix(v, "+") {
				if strings.Contains(v, "p") {
					p = true
				}
				continue
			}
		}
		names++
	}
	if p || names == 0 {
		return d.Variant.Value + " -p", true
	}
	return "", false
}
