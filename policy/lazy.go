package policy

import "sync"

// The policy's tables are built the first time they are read, not when the
// process starts: every start of sentinel (a sandboxed command's, a hook's)
// links this package, and most never judge anything. A package-level map
// literal, setOf call, init func or even sync.OnceValue runs (and
// allocates) at start-up; a zero sync.Once and static slices of constants
// do not. TestPolicyInitDoesNoWork holds this.

// lazy is a value made by build the first time it is read. build must not
// read the variable that holds it (that would be an initialization cycle);
// a table whose builder reaches the code that reads it uses a sync.Once in a
// function instead (programs, builtins).
type lazy[T any] struct {
	once  sync.Once
	build func() T
	v     T
}

func (l *lazy[T]) get() T {
	l.once.Do(func() { l.v = l.build() })
	return l.v
}

// wordSet is a set of words, made a map the first time it is asked.
type wordSet struct {
	once  sync.Once
	words []string
	m     map[string]bool
}

// has reports whether w is one of the set's words.
func (s *wordSet) has(w string) bool {
	s.once.Do(func() { s.m = setOf(s.words...) })
	return s.m[w]
}
