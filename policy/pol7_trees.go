package policy

import (
	"os"
	"path/filepath"
	"strings"
)

// Run-later files written through a place rather than by name (issue 32,
// polcorp5 A1): a directory target (cp -t D x writes D/x, cp -r x D the
// tree under it), an archive extracted into a directory or naming its
// members, git writing paths from another ref. The written names are
// judged with the one run-later list (runlater.toml) the plain write
// check uses.
//
// Members of an archive or of a copied tree are not known to the policy,
// which judges the line before it runs and reads no file's contents: a
// tree written into a directory asks unless that directory is a plain
// subdirectory — no element hidden (.cargo, .venv, .vscode), none a
// directory name of an auto entry of runlater.toml (bin, scripts,
// site-packages, gradle, …), none itself run-later. The workspace root
// with no members named (`tar xzf out.tgz`) stays the everyday extraction
// it is: see the report of h/pol7 for that decision.

// runLaterDirNames are the literal directory elements of runlater.toml's
// auto entries: a tree written into a directory of one of these names can
// land a run-later file.
var runLaterDirNames = lazy[map[string]bool]{build: func() map[string]bool {
	m := map[string]bool{}
	for _, e := range runLaterList.get() {
		if e.Class != RunsUnasked {
			continue
		}
		dirs := e.elems
		if !e.dir && len(dirs) > 0 {
			dirs = dirs[:len(dirs)-1]
		}
		for _, el := range dirs {
			if el != "**" && !isGlob(el) {
				m[el] = true
			}
		}
	}
	return m
}}

// plainTreeDir reports whether a tree of unknown names written into the
// workspace-relative directory r lands no run-later file the policy can
// foresee.
func plainTreeDir(r string) bool {
	elems := foldedElems(r)
	if len(elems) == 0 {
		return false
	}
	names := runLaterDirNames.get()
	for _, el := range elems {
		if strings.HasPrefix(el, ".") || names[el] {
			return false
		}
	}
	_, later := runLater(r)
	return !later
}

// writeTree judges files of unknown names written into the directory w
// (an extraction, a recursive copy): the directory as a write place, and,
// inside the workspace, asks unless it is a plain subdirectory. The
// workspace root itself is left to the plain write check (see above).
func (x *cmdCtx) writeTree(w word, what string) {
	x.write(word{val: strings.TrimSuffix(w.val, "/") + "/glob-match", static: w.static})
	if !w.static {
		return
	}
	v := w.val
	if w.pattern || strings.ContainsAny(v, "*?[") {
		v = literalPrefixDir(v)
	}
	for _, p := range x.resolve(word{val: v, static: true}) {
		if !within(p, x.c.ws) || p == x.c.ws {
			continue
		}
		if r := rel(p, x.c.ws); !plainTreeDir(r) {
			x.add(Ask, RulePathWriteRunLater, what+" files whose names the line does not show into "+r+", where a file that runs code later can land")
		}
	}
}

// writeInto judges what copying or moving the sources into the directory
// dir writes: dir/base(source) for each, and with recurse the tree under
// it.
func (x *cmdCtx) writeInto(dir word, srcs []word, recurse bool) {
	if !dir.static {
		return
	}
	for _, s := range srcs {
		if !s.static {
			continue
		}
		b := filepath.Base(strings.TrimSuffix(s.val, "/"))
		if b == "." || b == "/" || b == ".." {
			if recurse {
				x.writeTree(dir, "copies")
			}
			continue
		}
		t := word{val: filepath.Join(dir.val, b), static: true, pattern: s.pattern}
		x.write(t)
		if recurse {
			x.writeTree(t, "copies")
		}
	}
}

// targetDirOpt is the value of -t DIR in any spelling GNU cp, mv and
// install accept: -t DIR, -tDIR, a cluster ending in t (-Dt DIR), and
// --target-directory abbreviated (--target DIR, --ta=DIR). valued are the
// short options that take a value (a cluster stops at one).
func targetDirOpt(args []word, valued string) *word {
	for i, w := range args {
		v := w.val
		if v == "--" {
			return nil
		}
		if long, ok := strings.CutPrefix(v, "--"); ok {
			name, val, has := strings.Cut(long, "=")
			if name == "" || !strings.HasPrefix("target-directory", name) {
				continue
			}
			if has {
				return &word{val: val, static: w.static}
			}
			if i+1 < len(args) {
				return &args[i+1]
			}
			return nil
		}
		if len(v) < 2 || v[0] != '-' {
			continue
		}
		for j := 1; j < len(v); j++ {
			c := v[j]
			if c == 't' {
				if j+1 < len(v) {
					return &word{val: v[j+1:], static: w.static}
				}
				if i+1 < len(args) {
					return &args[i+1]
				}
				return nil
			}
			if strings.IndexByte(valued, c) >= 0 {
				break
			}
		}
	}
	return nil
}

// recursiveCopy reports cp's -r/-R/-a and their long forms.
func recursiveCopy(args []word) bool {
	for _, w := range args {
		v := w.val
		if v == "--" {
			return false
		}
		if long, ok := strings.CutPrefix(v, "--"); ok {
			if len(long) >= 2 && (strings.HasPrefix("recursive", long) || strings.HasPrefix("archive", long)) {
				return true
			}
			continue
		}
		if len(v) > 1 && v[0] == '-' && strings.ContainsAny(v[1:], "rRa") {
			return true
		}
	}
	return false
}

// extractTo judges an extraction into dir (nil: the working directory)
// naming members (none: the whole archive).
func (x *cmdCtx) extractTo(dir *word, members []word) {
	d := word{val: ".", static: true}
	if dir != nil {
		d = *dir
	}
	if len(members) == 0 {
		x.writeTree(d, "extracts")
		return
	}
	for _, m := range members {
		if !m.static || !d.static {
			x.add(Ask, RulePathUnknown, "extracts a member whose name cannot be known before it runs")
			continue
		}
		x.writeTree(word{val: filepath.Join(d.val, m.val), static: true, pattern: m.pattern}, "extracts")
		x.write(word{val: filepath.Join(d.val, m.val), static: true, pattern: m.pattern})
	}
}

// unzipPlan reads unzip's arguments: the directory of -d (in a cluster
// too: -od DIR, -dDIR), the archive and the members named (those after
// -x are excluded, not written).
func unzipPlan(args []word) (dir *word, archive *word, members []word) {
	excl := false
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.val
		if len(v) > 1 && v[0] == '-' && v != "--" {
			excl = false
			for j := 1; j < len(v); j++ {
				switch v[j] {
				case 'd':
					if j+1 < len(v) {
						dir = &word{val: v[j+1:], static: w.static}
					} else if i+1 < len(args) {
						i++
						dir = &args[i]
					}
					j = len(v)
				case 'P':
					if j+1 == len(v) {
						i++
					}
					j = len(v)
				case 'x':
					excl = true
				}
			}
			continue
		}
		if excl {
			continue
		}
		if archive == nil {
			archive = &args[i]
			continue
		}
		members = append(members, w)
	}
	return dir, archive, members
}

// gitPathspecWrites judges the paths git checkout / restore write: each
// pathspec as a run-later write, and with another ref as the source (a
// tree the line does not show) the tree under it as an extraction.
func (x *cmdCtx) gitPathspecWrites(sub string, sargs []word) {
	var paths []word
	fromRef := false
	switch sub {
	case "restore":
		if hasOpt(sargs, "S", "--staged") && !hasOpt(sargs, "W", "--worktree") {
			return
		}
		fromRef = hasOpt(sargs, "s", "--source") || len(longValues(sargs, "source")) > 0
		for i, w := range sargs {
			if strings.HasPrefix(w.val, "-s") && len(w.val) > 2 && !strings.HasPrefix(w.val, "--") {
				fromRef = true
			}
			_ = i
		}
		paths = operands(sargs, "sU", []string{"source", "conflict", "pathspec-from-file", "unified", "inter-hunk-context"})
	case "checkout":
		dash := -1
		for i, w := range sargs {
			if w.val == "--" {
				dash = i
				break
			}
		}
		if dash < 0 {
			ops := operands(sargs, "bBU", []string{"conflict", "pathspec-from-file", "orphan"})
			if len(ops) < 2 {
				return // a branch, or one path from the index
			}
			fromRef, paths = true, ops[1:]
		} else {
			fromRef = len(operands(sargs[:dash], "bBU", []string{"conflict", "orphan"})) > 0
			paths = sargs[dash+1:]
		}
	}
	for _, p := range paths {
		if !p.static {
			continue
		}
		for _, ap := range x.resolve(p) {
			if !within(ap, x.c.ws) || ap == x.c.ws {
				continue
			}
			r := rel(ap, x.c.ws)
			if e, ok := runLater(r); ok {
				x.add(Ask, RulePathWriteRunLater, "git "+sub+" writes "+r+", a file that runs code later ("+e.Reason+")")
			} else if fromRef && !plainTreeDir(r) {
				x.add(Ask, RulePathWriteRunLater, "git "+sub+" writes "+r+" from another ref: a file that runs code later can land there")
			}
		}
	}
}

// movedTrees judges moving an existing directory (mv ci/cargo .cargo,
// git mv): the tree it holds lands under dest, or under dest/base when
// dest is a directory. A source the line creates first is not seen here.
func (x *cmdCtx) movedTrees(srcs []word, dest word) {
	if !dest.static || dest.pattern {
		return
	}
	for _, s := range srcs {
		if !s.static || s.pattern {
			continue
		}
		for _, p := range x.resolve(s) {
			if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
				x.writeTree(dest, "moves")
				x.writeTree(word{val: filepath.Join(dest.val, filepath.Base(s.val)), static: true}, "moves")
				break
			}
		}
	}
}
