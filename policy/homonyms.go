package policy

import "strings"

// Some of the programs the policy denies outright are named by words that
// are far more often a tool's own verb: `ansible-galaxy role init`,
// `opam init`, `fly service list`, `mytool route add`. innerDeny reads
// the first known program among an unknown program's arguments as the
// command it runs, which turned those verbs into /sbin/init and friends
// and denied everyday lines. A homonym is read as the program only where
// a runner puts its command and with the arguments that program takes:
// `xcrun init 0`, `foo exec -- init 6` and `caffeinate route add …` are
// still judged (and denied) as init and route are.

// homonymVerb reports whether name is a denied program whose name is a
// common verb, with the check of the argument that follows it when it is
// that program (nil: any argument). A switch, not a map: the package
// builds nothing when a process starts (init_test.go).
func homonymVerb(name string) (check func(next string) bool, ok bool) {
	switch name {
	case "init", "telinit":
		return runlevelWord, true
	case "route":
		return routeVerb, true
	case "service", "at", "batch":
		return nil, true
	}
	return nil, false
}

// routeVerb reports whether w is what route takes first.
func routeVerb(w string) bool {
	return w == "add" || w == "del" || w == "delete" || w == "change" || w == "flush" || strings.HasPrefix(w, "-")
}

// runlevelWord reports whether w is an init runlevel or request.
func runlevelWord(w string) bool {
	return len(w) == 1 && strings.ContainsRune("0123456sSqQuUabc", rune(w[0]))
}

// runnerVerbs are the words after which a runner's command comes.
var runnerVerbs = wordSet{words: []string{"--", "exec", "run", "x", "-c"}}

// subcommandHomonym reports whether args[i], a static word among an
// unknown program's arguments, is a homonym read here as that program's
// own verb: it follows a non-option word that is not a runner verb (a
// verb of the tool: ansible-galaxy role init), or the word after it is not
// one the program takes (opam init, ansible-galaxy init roles/x).
func subcommandHomonym(args []word, i int) bool {
	check, ok := homonymVerb(args[i].val)
	if !ok {
		return false
	}
	if prev := args[i-1]; i > 1 && prev.static && !strings.HasPrefix(prev.val, "-") && !runnerVerbs.has(prev.val) && isVerbWord(prev.val) {
		return true
	}
	if check == nil {
		return false
	}
	return i+1 >= len(args) || !args[i+1].static || !check(args[i+1].val)
}

// isVerbWord reports whether w looks like a tool's verb: lower-case
// letters and dashes, not a number, path or value.
func isVerbWord(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if (r < 'a' || r > 'z') && r != '-' {
			return false
		}
	}
	return true
}
