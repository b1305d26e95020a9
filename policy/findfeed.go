package policy

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// find | xargs CMD runs CMD on the paths find prints, which lie below its
// starting points, or are the starting points themselves with -maxdepth
// 0: find ~ -maxdepth 0 | xargs rm -rf runs rm -rf ~. For xargsfeed.go
// the items are each starting point as written, with /glob-match (any
// path below it) appended unless the search stays at depth 0. A find that
// acts or prints something other than paths feeds nothing here.

// findActs are find's actions and printers whose output is not the plain
// list of paths.
var findActs = wordSet{words: []string{"-exec", "-execdir", "-ok", "-okdir", "-delete", "-printf", "-fprint",
	"-fprint0", "-fprintf", "-ls", "-fls", "-quit"}}

// findFedItems returns the items find prints, as written (see above).
func findFedItems(s *src, call *syntax.CallExpr, argv []string) []string {
	if len(argv) != len(call.Args) {
		return nil
	}
	i := 1
	for i < len(argv) && (argv[i] == "-H" || argv[i] == "-L" || argv[i] == "-P") {
		i++
	}
	first := i
	for i < len(argv) && !strings.HasPrefix(argv[i], "-") && argv[i] != "(" && argv[i] != "!" {
		i++
	}
	starts := call.Args[first:i]
	depth0 := false
	for j := i; j < len(argv); j++ {
		if findActs.has(argv[j]) {
			return nil
		}
		if argv[j] == "-maxdepth" && j+1 < len(argv) && argv[j+1] == "0" {
			depth0 = true
		}
	}
	var out []string
	for _, w := range starts {
		written := s.slice(w)
		if written == "" {
			return nil
		}
		if !depth0 {
			written += "/glob-match"
		}
		out = append(out, written)
	}
	return out
}

// findExecSpelling spells find ARGS | xargs CMD as the find that runs CMD
// itself, find ARGS -exec CMD {} + (issue 32, polcorp8 destroy-in: find .
// | xargs rm -rf, find . -print0 | xargs -0 rm -rf): xargs gives CMD the
// paths find prints, as -exec would, so a find that walks the whole
// project or home and feeds rm is judged by findWipe and the path rules as
// find -delete is. Only a find that prints plain paths (no action of its
// own) is spelled, and only a deny is taken from the spelling (the caller
// drops its other parts), so it never allows and never adds an ask.
func findExecSpelling(s *src, argv []string, prod, cons *syntax.CallExpr) (string, bool) {
	if len(argv) == 0 || argv[0] != "find" || len(argv) != len(prod.Args) {
		return "", false
	}
	for _, a := range argv[1:] {
		if findActs.has(a) {
			return "", false
		}
	}
	cmd, ok := xargsCommand(s, cons, []string{"{}"})
	if !ok || strings.ContainsAny(cmd, "\n;&|") {
		return "", false
	}
	return s.slice(prod) + " -exec " + cmd + " +", true
}

// lsListedItems: ls without -d prints the entries of each directory it is
// given (of the working directory with none), so ls | xargs rm -rf runs
// rm -rf * and ls DIR | xargs rm -rf runs rm -rf DIR/*: the items, as
// globs, for a deny-only reading. Options other than -1, -a, -A (which
// print something other than one name a line, or sort) feed nothing.
func lsListedItems(s *src, argv []string, call *syntax.CallExpr) []string {
	if len(argv) == 0 || argv[0] != "ls" || len(argv) != len(call.Args) {
		return nil
	}
	var out []string
	for i, v := range argv[1:] {
		if strings.HasPrefix(v, "-") && len(v) > 1 {
			if strings.Trim(v[1:], "1aA") != "" {
				return nil
			}
			continue
		}
		out = append(out, strings.TrimSuffix(s.slice(call.Args[i+1]), "/")+"/*")
	}
	if len(out) == 0 {
		out = []string{"*"}
	}
	return out
}

// shellDenyOnly judges cmd as shell and keeps, of the parts it adds, only
// the denies: a reading that can only make the line stricter.
func (c *checkEnv) shellDenyOnly(s *src, cmd string, cw *cwds, via string) {
	sub := cw.copy()
	before := len(c.parts)
	c.shell(cmd, &sub, s.depth+1, via)
	kept := c.parts[:before]
	for _, p := range c.parts[before:] {
		if p.Decision == Deny {
			kept = append(kept, p)
		}
	}
	c.parts = kept
}
