package policy

import "path/filepath"

// A tool that rewrites or builds into a directory tree (`gofmt -w .`,
// `goimports -w .`, `cmake --build .`) writes files under that directory,
// never the directory itself. Named as the workspace root, the tree is
// the workspace: what such a tool writes is files inside it, judged like
// any workspace write (a protected name such as .git/hooks still is, by
// the rules of the path written). Other operands are judged as written.

// rewriteTree judges w as a tree whose files the command writes.
func (x *cmdCtx) rewriteTree(w word) {
	if w.static && !w.pattern && !w.brace {
		for _, p := range x.resolve(w) {
			if p == x.c.ws {
				// a file under the root, not the root: treeFile is no
				// protected or run-later name
				x.writeStr(filepath.Join(w.val, treeFile))
				return
			}
		}
	}
	x.write(w)
}

// treeFile stands for the files a tree-writing tool writes under a
// directory (the name handlers_go.go uses for -outputdir).
const treeFile = "glob-match"
