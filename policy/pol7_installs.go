package policy

import "strings"

// Install targets of every build tool (issue 32, polcorp5 A2): `make
// install` asks as a target that installs, publishes or deploys; the same
// target built through `cmake --build DIR --target install` or `ninja
// install` installs the same files outside the workspace.

// publishTarget reports a build target whose name says it installs,
// publishes or deploys (the words make's handler asks about).
func publishTarget(t string) bool {
	t = strings.ToLower(t)
	for _, bad := range []string{"install", "deploy", "publish", "release", "push", "upload", "ship", "apply", "destroy"} {
		if strings.Contains(t, bad) {
			return true
		}
	}
	return false
}

// askPublishTargets asks for each target that installs or publishes.
func (x *cmdCtx) askPublishTargets(tool string, targets []word) {
	for _, t := range targets {
		if !t.static || publishTarget(t.val) {
			x.add(Ask, RulePublish, tool+" target "+quoteShort(t.val)+" sounds like it installs, publishes or deploys")
		}
	}
}

// cmakeBuildTargets are the targets of `cmake --build`: the words after
// --target/-t (cmake 3.15 takes several), --target=T and the native
// tool's arguments after --.
func cmakeBuildTargets(args []word) []word {
	var out []word
	for i := 1; i < len(args); i++ {
		v := args[i].val
		switch {
		case v == "--":
			for _, r := range args[i+1:] {
				if !strings.HasPrefix(r.val, "-") {
					out = append(out, r)
				}
			}
			return out
		case v == "--target" || v == "-t":
			for i+1 < len(args) && !strings.HasPrefix(args[i+1].val, "-") {
				i++
				out = append(out, args[i])
			}
		case strings.HasPrefix(v, "--target="):
			for _, t := range strings.FieldsFunc(v[len("--target="):], func(r rune) bool { return r == ',' || r == ';' }) {
				out = append(out, word{val: t, static: args[i].static})
			}
		}
	}
	return out
}

// ninjaTargets are ninja's operands: what it builds.
func ninjaTargets(args []word) []word {
	var out []word
	for i := 1; i < len(args); i++ {
		v := args[i].val
		switch {
		case v == "-C" || v == "-j" || v == "-k" || v == "-l" || v == "-f" || v == "-t" || v == "-d" || v == "-w":
			i++
		case strings.HasPrefix(v, "-"):
		default:
			out = append(out, args[i])
		}
	}
	return out
}

// scriptArgPaths judges what npm passes to a script after --: an output
// option's value is a write (tsc --outDir, vite --outDir, webpack
// --output-path), any other path-looking value a read, as the same
// arguments given to the tool itself would be.
func (x *cmdCtx) scriptArgPaths(ops []word) {
	dash := -1
	for i, w := range ops {
		if w.val == "--" {
			dash = i
			break
		}
	}
	if dash < 0 {
		return
	}
	rest := ops[dash+1:]
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		if !w.static {
			continue
		}
		if name, ok := strings.CutPrefix(w.val, "-"); ok {
			name = strings.TrimLeft(name, "-")
			n, val, has := strings.Cut(name, "=")
			out := outputOptionName(n)
			if !has && out && i+1 < len(rest) {
				i++
				x.write(rest[i])
				continue
			}
			if has && out {
				x.writeStr(val)
			} else if has && looksLikePath(val) {
				x.readStr(val)
			}
			continue
		}
		if looksLikePath(w.val) {
			x.read(w)
		}
	}
}

// outputOptionName: an option that names where a build writes.
func outputOptionName(n string) bool {
	n = strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(n, "-", ""), "_", ""))
	if outputOptions.has(n) {
		return true
	}
	for _, s := range []string{"outdir", "outfile", "output", "outpath", "dest", "dist"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}
