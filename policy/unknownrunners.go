package policy

import "strings"

// A program the policy does not know that names a command the policy
// knows among its arguments is most often a runner: caffeinate, xcrun,
// nix-shell --run, hyperfine, a project's own launcher. The line keeps
// asking; the command it names is judged on its own as well and a deny
// from it is the line's (innerdeny.go), so `xcrun rm -rf ~` and
// `nix-shell --run 'rm -rf ~'` are denied as rm -rf ~ is. Only a deny is
// taken, so a wrong reading makes the line stricter and never lets
// anything through.

// unknownRunner asks about an unknown program and judges the command its
// arguments name.
func (x *cmdCtx) unknownRunner(prog string, args []word) {
	x.add(Ask, RuleUnknownCommand, prog+" is not a program the policy knows")
	x.innerDeny(args)
}

// shellTextOption reports whether w is a long option whose value is a
// line of shell (nix-shell --run/--command, hyperfine --prepare), and its
// value when written as --opt=TEXT.
func shellTextOption(w string) (text string, joined, ok bool) {
	name, val, has := strings.Cut(w, "=")
	switch name {
	case "--run", "--command", "--prepare", "--exec":
		return val, has, true
	}
	return "", false, false
}
