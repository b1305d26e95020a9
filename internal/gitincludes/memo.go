package gitincludes

import (
	"context"
	"slices"
	"strings"
	"sync"
)

// memoKey carries a *memo in a context.
type memoKey struct{}

// memo holds allIncludes' answers for one moment: the include files of a
// config do not change between the calls one caller makes back to back
// (Files, ProgramsAndLinks, HooksDirs for one launch), and each answer
// costs a git config per config file.
type memo struct {
	mu   sync.Mutex
	seen map[string][]string
}

// WithMemo is ctx under which the functions of this package list a
// config's includes once for each root and set of git dirs and answer
// again from that listing: for a caller asking several of them about one
// moment, before anything else may write the config. A caller that must
// notice a change since (a later check) uses a ctx without it.
func WithMemo(ctx context.Context) context.Context {
	return context.WithValue(ctx, memoKey{}, &memo{seen: map[string][]string{}})
}

// memoIncludes is allIncludes(ctx, root, gitDirs), answered from ctx's
// memo when it carries one that holds it.
func memoIncludes(ctx context.Context, root string, gitDirs []string) []string {
	m, ok := ctx.Value(memoKey{}).(*memo)
	if !ok {
		return allIncludes(ctx, root, gitDirs)
	}
	key := root + "\x00" + strings.Join(gitDirs, "\x00")
	m.mu.Lock()
	defer m.mu.Unlock()
	if l, ok := m.seen[key]; ok {
		return slices.Clone(l)
	}
	l := allIncludes(ctx, root, gitDirs)
	m.seen[key] = l
	return slices.Clone(l)
}
