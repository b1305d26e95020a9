package policy

import (
	"path/filepath"
	"strings"
)

// Programs that change files: their targets are judged as writes.

func copyCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleFileWrite, "copies files inside the workspace")
	ops := operands(args[1:], "tSmogZ", []string{"target-directory", "suffix", "mode", "owner", "group", "backup", "sparse", "reflink", "preserve", "no-preserve", "context", "strip-program"})
	if v := longValues(args[1:], "strip-program"); len(v) > 0 {
		x.add(Deny, RuleToolExec, "install --strip-program runs a program")
	}
	target := targetDirOpt(args[1:], "SmogZ") // pol7_trees.go: -Dt DIR, --target DIR
	x.linksIntoTemp(args, ops, target)        // privatetemp.go: cp -rl src /tmp/x
	if target != nil {
		x.write(*target)
		for _, w := range ops {
			x.read(w)
		}
		x.writeInto(*target, ops, recursiveCopy(args[1:]))
		return
	}
	if len(ops) == 0 {
		return
	}
	for _, w := range ops[:len(ops)-1] {
		x.read(w)
	}
	if !x.intoTempDir(args[1:], ops[len(ops)-1], ops[:len(ops)-1]) { // privatetemp.go: cp main.go /tmp/
		x.write(ops[len(ops)-1])
	}
	x.copyEmpties(ops) // emptyfile.go: cp /dev/null src/main.rs
	if len(ops) > 1 {
		// The copy may land inside the destination directory.
		last := ops[len(ops)-1]
		for _, w := range ops[:len(ops)-1] {
			if w.static && last.static && !last.pattern {
				x.write(word{val: filepath.Join(last.val, filepath.Base(w.val)), static: true, pattern: w.pattern})
			}
		}
		if recursiveCopy(args[1:]) {
			// the tree under the destination (pol7_trees.go)
			x.writeTree(last, "copies")
			x.writeInto(last, ops[:len(ops)-1], true)
		}
	}
}

// targetDir returns the value of -t DIR / --target-directory=DIR.
func targetDir(args []word) *word {
	for i, w := range args {
		if v, ok := strings.CutPrefix(w.val, "--target-directory="); ok {
			return &word{val: v, static: w.static}
		}
		if (w.val == "-t" || w.val == "--target-directory") && i+1 < len(args) {
			return &args[i+1]
		}
		if strings.HasPrefix(w.val, "-t") && len(w.val) > 2 && !strings.HasPrefix(w.val, "--") {
			return &word{val: w.val[2:], static: w.static}
		}
	}
	return nil
}

func moveCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleFileWrite, "moves files inside the workspace")
	ops := operands(args[1:], "tS", []string{"target-directory", "suffix", "backup"})
	if t := targetDirOpt(args[1:], "S"); t != nil {
		x.write(*t)
		x.writeInto(*t, ops, false) // pol7_trees.go: mv -t .cargo config.toml
	}
	for i, w := range ops {
		if i < len(ops)-1 || !x.intoTempDir(args[1:], w, ops[:i]) { // privatetemp.go: mv x.log /tmp/
			x.write(w)
		}
	}
	x.movesToTemp(args[1:], ops) // privatetemp.go: mv src/a /tmp/ in place
	if len(ops) > 1 {
		last := ops[len(ops)-1]
		for _, w := range ops[:len(ops)-1] {
			// Renaming a secret is reading it by another name.
			x.read(w)
			if w.static && last.static && !last.pattern {
				x.write(word{val: filepath.Join(last.val, filepath.Base(w.val)), static: true, pattern: w.pattern})
			}
		}
		x.movedTrees(ops[:len(ops)-1], last) // pol7_trees.go: mv ci/cargo .cargo
	}
}

func removeCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleFileWrite, "removes files inside the workspace")
	ops := operands(args[1:], "", nil)
	generated := generatedOnly(x, ops)
	x.removeInTree(ops, hasOpt(args[1:], "rR", "--recursive", "--no-preserve-root"), generated)
	if hasOpt(args[1:], "", "--no-preserve-root") {
		x.add(Deny, RuleSystem, "rm --no-preserve-root")
	}
	// Deleting what a build or install makes again (rm -rf node_modules
	// && npm install) writes no text a later part could run: it is not
	// remembered as written (writethenrun.go), so the install or build
	// after it is judged as on its own. Any other deletion is.
	was := x.c.keepText
	x.c.keepText = was || generated
	for _, w := range operands(args[1:], "", nil) {
		x.write(w)
	}
	x.c.keepText = was
}

func touchCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleFileWrite, "creates or touches files inside the workspace")
	for _, w := range operands(args[1:], "dtr", []string{"date", "reference", "time"}) {
		x.write(w)
	}
}

func chmodCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleFileWrite, "changes file modes inside the workspace")
	ops := operands(args[1:], "", []string{"reference"})
	if len(longValues(args[1:], "reference")) == 0 && len(ops) > 0 {
		mode := ops[0].val
		if strings.ContainsAny(mode, "st") || (isDigits(mode) && len(mode) == 4 && mode[0] != '0') {
			x.add(Ask, RuleShellOption, "sets setuid, setgid or sticky bits")
		}
		ops = ops[1:]
	}
	for _, w := range ops {
		x.write(w)
	}
}

func linkCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleFileWrite, "creates links inside the workspace")
	ops := operands(args[1:], "tS", []string{"target-directory", "suffix", "backup"})
	if len(ops) == 0 {
		return
	}
	var link word
	targets := ops
	if t := targetDir(args[1:]); t != nil {
		link = *t
	} else if len(ops) == 1 {
		link = word{val: filepath.Base(ops[0].val), static: ops[0].static}
	} else {
		link = ops[len(ops)-1]
		targets = ops[:len(ops)-1]
	}
	x.write(link)
	var linkAt []string // canonical, for tempLinkOut
	if link.static && !link.pattern {
		linkAt = x.resolve(link)
	}
	for _, t := range targets {
		if !t.static || t.pattern {
			x.add(Ask, RulePathSymlinkOut, "a link to a target that cannot be known before it runs")
			continue
		}
		// A symbolic link's target is relative to the link's directory.
		base := word{val: t.val, static: true}
		if !filepath.IsAbs(t.val) && link.static && hasOpt(args[1:], "s", "--symbolic") {
			base.val = filepath.Join(filepath.Dir(link.val), t.val)
		}
		for _, p := range x.resolve(base) {
			if !x.tempLinkOut(linkAt, p) && !within(p, x.c.ws) {
				x.add(Ask, RulePathSymlinkOut, "links to "+x.c.show(p)+", outside the workspace")
			}
			// A link to a secret is a read of it by another name.
			if f := x.c.judgePath(p, false); f.rule == RulePathCredential || f.rule == RulePathReadSecret {
				x.addF(f)
			}
		}
	}
}

func ddCmd(x *cmdCtx, args []word) {
	x.add(Allow, RuleFileWrite, "copies data inside the workspace")
	x.ddEmpties(args) // emptyfile.go: dd if=/dev/null of=src/main.rs
	for _, w := range args[1:] {
		k, v, ok := strings.Cut(w.val, "=")
		if !ok {
			continue
		}
		switch k {
		case "of":
			x.write(word{val: v, static: w.static})
		case "if":
			x.read(word{val: v, static: w.static})
		}
	}
}

// mktempCmd is mktemp: it creates a file or directory named by its
// template in -p/--tmpdir's directory, in $TMPDIR or /tmp with -t,
// --tmpdir or no template, and else where the template names (the
// current directory for a bare name). In the sandbox the temp dir
// is the coder's private one (tmpdir.go), so a temp file there is its
// scratch, judged as captured output; without it /tmp is the machine's.
func mktempCmd(x *cmdCtx, args []word) {
	var dir, template *word
	inTemp := false
	for i := 1; i < len(args); i++ {
		w := args[i]
		switch v := w.val; {
		case v == "-p" && i+1 < len(args):
			dir = &args[i+1]
			i++
		case strings.HasPrefix(v, "--tmpdir="):
			dir = &word{val: strings.TrimPrefix(v, "--tmpdir="), static: w.static}
		case strings.HasPrefix(v, "-p") && len(v) > 2:
			dir = &word{val: v[2:], static: w.static}
		case v == "--tmpdir" || strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && len(v) > 1 && strings.Trim(v[1:], "dqtu") == "":
			inTemp = inTemp || v == "--tmpdir" || strings.Contains(v, "t")
		case v == "--directory" || v == "--dry-run" || v == "--quiet" || strings.HasPrefix(v, "--suffix="):
		case strings.HasPrefix(v, "-"):
			x.add(Ask, RulePathUnknown, "mktemp option "+v+" is not known to the policy")
			return
		default:
			template = &args[i]
		}
	}
	switch {
	case dir != nil:
		x.add(Allow, RuleFileWrite, "creates a temporary file")
		x.capturing(func() { x.write(word{val: dir.val + "/glob-match", static: dir.static}) })
	case template != nil && !inTemp:
		x.add(Allow, RuleFileWrite, "creates a temporary file")
		x.capturing(func() { x.write(*template) })
	case template != nil && strings.Contains(template.val, "/"):
		// -t/--tmpdir put the template under the temp dir, and GNU mktemp
		// takes one with folders (--tmpdir ../../etc/xXXX makes /etc/xNNN):
		// judged as a write of where it lands.
		tmp := x.c.tmp
		if tmp == "" {
			tmp = "/tmp"
		}
		x.add(Allow, RuleFileWrite, "creates a temporary file")
		x.capturing(func() { x.write(word{val: filepath.Join(tmp, template.val), static: template.static}) })
	case x.c.sandbox && x.c.tmp != "":
		x.add(Allow, RuleFileWrite, "creates a temporary file in the sandbox's private temp dir")
	default:
		for _, w := range x.c.writable {
			if w == "/tmp" || strings.HasPrefix(w, "/tmp/") {
				x.add(Allow, RuleFileWrite, "creates a temporary file")
				return
			}
		}
		x.add(Ask, RulePathUnknown, "creates a file in the system temporary directory")
	}
}

// generatedDirs are directories tools regenerate: build outputs, caches,
// installed dependencies. Deleting them inside the workspace loses nothing.
var generatedDirs = wordSet{words: []string{"build", "dist", "out", "target", "node_modules", ".next", ".nuxt", ".svelte-kit",
	"coverage", "htmlcov", ".pytest_cache", "__pycache__", ".mypy_cache", ".ruff_cache", ".tox", ".nox",
	".turbo", ".parcel-cache", ".cache", ".gradle", "obj", ".eggs", ".hypothesis", ".coverage", "tmp",
	// polcorp12: Elixir/rebar3/dune, Dart, SwiftPM, Zig, cabal, stack, Terraform, .NET tests
	"_build", ".dart_tool", ".build", "zig-out", ".zig-cache", "zig-cache", "dist-newstyle", ".stack-work", ".terraform", "TestResults"}}

// generatedOnly reports whether every operand is a generated directory
// (or an .egg-info) inside the workspace, named plainly.
func generatedOnly(x *cmdCtx, ops []word) bool {
	if len(ops) == 0 {
		return false
	}
	for _, w := range ops {
		if !w.static || w.pattern || w.brace {
			return false
		}
		base := filepath.Base(strings.TrimRight(w.val, "/"))
		if !generatedDirs.has(base) && !strings.HasSuffix(base, ".egg-info") {
			return false
		}
		ps := x.resolve(w)
		if ps == nil {
			return false
		}
		for _, p := range ps {
			if !within(p, x.c.ws) || p == x.c.ws {
				return false
			}
		}
	}
	return true
}
