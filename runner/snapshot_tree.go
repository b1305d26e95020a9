package runner

// The snapshot's tree from HEAD's, touching only the directories on the
// changed paths: one `git cat-file --batch` reads those directories' trees
// from HEAD, the new trees are laid out here (git's entry order, hashed
// here so a parent can name its new children), and one
// `git mktree --batch` writes them, bottom-up, checking every entry's object
// exists; the ids it prints must be the ones computed here.

import (
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// editNode is one name on the changed paths: it becomes a blob (set), goes
// (del), and/or has changes below it (kids: it is, or becomes, a directory).
type editNode struct {
	path string // from the top, "" for the top
	set  *treeEntry
	del  bool
	kids map[string]*editNode
}

type treeEntry struct {
	mode string // as in a tree object: 40000, 100644, 100755, 120000, 160000
	name string
	oid  string // raw bytes
}

func (e treeEntry) isTree() bool { return e.mode == "40000" }

// editTree writes the tree that is headTree with changes applied and
// returns its id.
func editTree(ctx context.Context, g gitCmd, headTree string, changes []pathChange) (string, error) {
	root := &editNode{}
	for _, c := range changes {
		n := root
		for _, name := range strings.Split(c.path, "/") {
			if n.kids == nil {
				n.kids = map[string]*editNode{}
			}
			k := n.kids[name]
			if k == nil {
				k = &editNode{path: strings.TrimPrefix(n.path+"/"+name, "/")}
				n.kids[name] = k
			}
			n = k
		}
		if c.mode == "" {
			n.del = true
			continue
		}
		oid, err := hex.DecodeString(c.oid)
		if err != nil {
			return "", err
		}
		n.set = &treeEntry{mode: c.mode, oid: string(oid)}
	}
	b := &treeBuilder{newHash: sha1.New}
	if len(headTree) == 2*sha256.Size {
		b.newHash = sha256.New
	}
	if err := b.readTrees(ctx, g, headTree, root); err != nil {
		return "", err
	}
	head := b.old[""]
	top, err := b.build(root, &head)
	if err != nil {
		return "", err
	}
	if top == nil {
		return "", unusual("every file is gone")
	}
	if err := b.write(ctx, g); err != nil {
		return "", err
	}
	return hex.EncodeToString([]byte(top.oid)), nil
}

type treeBuilder struct {
	newHash func() hash.Hash
	// old holds HEAD's trees at the directories on the changed paths, by
	// path; a path that is no directory in HEAD is absent.
	old    map[string]treeObject
	writes []treeObject // children before parents
}

// treeObject is a tree: HEAD's, read, or a new one, to be written.
type treeObject struct {
	oid     string // hex
	entries []treeEntry
}

// readTrees reads, in one git call, HEAD's tree at every node that has
// changes below it.
func (b *treeBuilder) readTrees(ctx context.Context, g gitCmd, headTree string, root *editNode) error {
	var paths []string
	var walk func(n *editNode)
	walk = func(n *editNode) {
		if len(n.kids) == 0 {
			return
		}
		paths = append(paths, n.path)
		for _, k := range n.kids {
			walk(k)
		}
	}
	walk(root)
	names := make([]string, len(paths))
	var in strings.Builder
	for i, p := range paths {
		names[i] = headTree
		if p != "" {
			names[i] += ":" + p
		}
		in.WriteString(names[i])
		in.WriteByte(0)
	}
	out, err := g.input([]byte(in.String())).run(ctx, "cat-file", "-z", "--batch")
	if err != nil {
		return err
	}
	b.old = map[string]treeObject{}
	for i, name := range names {
		if rest, ok := strings.CutPrefix(out, name+" missing\n"); ok {
			out = rest
			continue
		}
		header, rest, ok := strings.Cut(out, "\n")
		f := strings.Fields(header)
		if !ok || len(f) != 3 {
			return fmt.Errorf("git cat-file: unexpected header %q", header)
		}
		size, err := strconv.Atoi(f[2])
		if err != nil || len(rest) < size+1 || rest[size] != '\n' {
			return fmt.Errorf("git cat-file: short output for %q", name)
		}
		body := rest[:size]
		out = rest[size+1:]
		if f[1] != "tree" {
			continue // a file in HEAD that became a directory
		}
		entries, err := parseTree(body, b.newHash().Size())
		if err != nil {
			return err
		}
		if err := checkAttributesFile(g.dir, paths[i], entries); err != nil {
			return err
		}
		b.old[paths[i]] = treeObject{oid: f[0], entries: entries}
	}
	if _, ok := b.old[""]; !ok {
		return fmt.Errorf("git cat-file: no tree %s", headTree)
	}
	return nil
}

// checkAttributesFile declines a directory on the changed paths whose
// .gitattributes is in HEAD (and, unchanged, in the index) but not a file in
// the work tree (skip-worktree, assume-unchanged): add then reads the
// index's copy, hash-object none.
func checkAttributesFile(root, dir string, entries []treeEntry) error {
	for _, e := range entries {
		if e.name != ".gitattributes" || e.isTree() {
			continue
		}
		st, err := os.Lstat(filepath.Join(root, filepath.FromSlash(dir), e.name))
		if err != nil || !st.Mode().IsRegular() {
			return unusual("%s/.gitattributes is not in the work tree", dir)
		}
	}
	return nil
}

// parseTree reads a tree object. Modes git itself would not write
// (zero-padded, group-writable) are left to `git add -A`, which writes
// them anew.
func parseTree(body string, hashSize int) ([]treeEntry, error) {
	var entries []treeEntry
	for body != "" {
		mode, rest, ok := strings.Cut(body, " ")
		name, rest2, ok2 := strings.Cut(rest, "\x00")
		if !ok || !ok2 || len(rest2) < hashSize {
			return nil, fmt.Errorf("git cat-file: malformed tree")
		}
		switch mode {
		case "40000", "100644", "100755", "120000", "160000":
		default:
			return nil, unusual("tree entry %q has mode %s", name, mode)
		}
		entries = append(entries, treeEntry{mode: mode, name: name, oid: rest2[:hashSize]})
		body = rest2[hashSize:]
	}
	return entries, nil
}

// build applies n's changes to old (nil: an empty directory) and returns
// the directory's new entry, nil when nothing is left in it.
func (b *treeBuilder) build(n *editNode, old *treeObject) (*treeEntry, error) {
	entries := map[string]treeEntry{}
	if old != nil {
		for _, e := range old.entries {
			entries[e.name] = e
		}
	}
	for name, k := range n.kids {
		was, had := entries[name]
		switch {
		case k.set != nil:
			if k.hasSet() {
				return nil, unusual("%q is a file and has files below it", k.path)
			}
			e := *k.set
			e.name = name
			entries[name] = e
		case len(k.kids) > 0:
			var below *treeObject
			if had && was.isTree() {
				t, ok := b.old[k.path]
				if !ok {
					return nil, fmt.Errorf("tree %q was not read", k.path)
				}
				below = &t
			} else if had && !k.del {
				return nil, unusual("%q is %s in HEAD and has changes below it", k.path, was.mode)
			}
			e, err := b.build(k, below)
			if err != nil {
				return nil, err
			}
			if e == nil {
				delete(entries, name)
			} else {
				e.name = name
				entries[name] = *e
			}
		case k.del:
			if !had {
				return nil, unusual("%q is gone but not in HEAD", k.path)
			}
			delete(entries, name)
		}
	}
	if len(entries) == 0 {
		return nil, nil
	}
	sorted := make([]treeEntry, 0, len(entries))
	for _, e := range entries {
		sorted = append(sorted, e)
	}
	// Git orders a directory's entries by name, a subdirectory's name
	// compared as if it ended in '/'.
	key := func(e treeEntry) string {
		if e.isTree() {
			return e.name + "/"
		}
		return e.name
	}
	sort.Slice(sorted, func(i, j int) bool { return key(sorted[i]) < key(sorted[j]) })
	var body strings.Builder
	for _, e := range sorted {
		body.WriteString(e.mode + " " + e.name + "\x00" + e.oid)
	}
	h := b.newHash()
	fmt.Fprintf(h, "tree %d\x00", body.Len())
	h.Write([]byte(body.String()))
	oid := string(h.Sum(nil))
	hexOID := hex.EncodeToString([]byte(oid))
	if old == nil || old.oid != hexOID {
		b.writes = append(b.writes, treeObject{oid: hexOID, entries: sorted})
	}
	return &treeEntry{mode: "40000", oid: oid}, nil
}

// hasSet reports whether anything below n becomes a file.
func (n *editNode) hasSet() bool {
	for _, k := range n.kids {
		if k.set != nil || k.hasSet() {
			return true
		}
	}
	return false
}

// write has git write the new trees and checks it names them as computed.
func (b *treeBuilder) write(ctx context.Context, g gitCmd) error {
	if len(b.writes) == 0 {
		return nil
	}
	var in strings.Builder
	for _, t := range b.writes {
		for _, e := range t.entries {
			typ := "blob"
			switch e.mode {
			case "40000":
				typ = "tree"
			case "160000":
				typ = "commit"
			}
			fmt.Fprintf(&in, "%s %s %s\t%s\x00", e.mode, typ, hex.EncodeToString([]byte(e.oid)), e.name)
		}
		in.WriteByte(0)
	}
	out, err := g.input([]byte(in.String())).run(ctx, "mktree", "-z", "--batch")
	if err != nil {
		return err
	}
	got := strings.Fields(out)
	if len(got) != len(b.writes) {
		return fmt.Errorf("git mktree: %d trees for %d", len(got), len(b.writes))
	}
	for i, t := range b.writes {
		if got[i] != t.oid {
			return fmt.Errorf("git mktree wrote %s where %s was computed", got[i], t.oid)
		}
	}
	return nil
}
