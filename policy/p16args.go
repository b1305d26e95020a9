package policy

import "strings"

// Arguments of the polcorp16 build tools (buildverbs_p16.go) that the
// shared argument judgment (buildArgs) would misread, rewritten to what
// they are before it runs:
//
//   - dune's @alias and @@alias targets (@runtest, @fmt, @src/install) are
//     aliases of the project's build rules, not response files: the
//     directory part is judged as a workspace path operand;
//   - xmake's -p/--plat, -a/--arch, -m/--mode and -k/--kind take a plain
//     platform, architecture, mode or kind name (not a project, an archive
//     or a key), dropped when the value is a plain word;
//   - buf's output option (-o, --output) and hugo's (-d, --destination)
//     name where the generated code or site is written: judged as a write
//     (a place outside the workspace or a run-later file is refused);
//     buf format's -d/--diff prints a diff;
//   - hugo's -D/--buildDrafts, -F/--buildFuture, -E/--buildExpired and
//     --minify only choose which pages are built.
//
// Anything else is left as it is, for buildArgs to judge. outs are the
// places written, judged as writes once the verb is allowed (a write judged
// earlier would send the line to the tool's own handler, as a line that
// writes files before it builds).
func p16Args(tool string, args []word) (out, outs []word) {
	switch tool {
	case "dune", "xmake", "buf", "hugo":
	default:
		return args, nil
	}
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.val
		if !w.static || w.brace {
			out = append(out, w)
			continue
		}
		switch tool {
		case "dune":
			if a, ok := strings.CutPrefix(strings.TrimPrefix(v, "@"), "@"); ok || strings.HasPrefix(v, "@") {
				if !ok {
					a = v[1:]
				}
				if plainAlias(a) {
					dir := "."
					if j := strings.LastIndex(a, "/"); j >= 0 {
						dir = a[:j]
					}
					out = append(out, word{val: dir, static: true})
					continue
				}
			}
		case "xmake":
			if setOf("-p", "--plat", "-a", "--arch", "-m", "--mode", "-k", "--kind")[v] && i+1 < len(args) && xmakeValue(args[i+1]) {
				i++
				continue
			}
		case "buf", "hugo":
			outOpts := setOf("-o", "--output")
			if tool == "hugo" {
				outOpts = setOf("-d", "--destination")
			}
			if tool == "buf" && (v == "-d" || v == "--diff") {
				continue // buf format -d prints a diff
			}
			if outOpts[v] && i+1 < len(args) && args[i+1].static && !args[i+1].brace && !strings.HasPrefix(args[i+1].val, "-") {
				outs = append(outs, args[i+1])
				i++
				continue
			}
			if tool == "hugo" && setOf("-D", "--buildDrafts", "-F", "--buildFuture", "-E", "--buildExpired", "--minify")[v] {
				continue
			}
		}
		out = append(out, w)
	}
	return out, outs
}

// plainAlias: a dune alias name, optionally under a relative directory,
// of letters, digits and - _ . / only, with no .. element.
func plainAlias(a string) bool {
	if a == "" || strings.HasPrefix(a, "/") {
		return false
	}
	for _, el := range strings.Split(a, "/") {
		if el == ".." || el == "" {
			return false
		}
	}
	return strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./") == ""
}

// xmakeValue: a static word of letters, digits, - _ and . only.
func xmakeValue(w word) bool {
	return w.static && !w.brace && w.val != "" && !strings.HasPrefix(w.val, "-") &&
		strings.Trim(w.val, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") == ""
}
