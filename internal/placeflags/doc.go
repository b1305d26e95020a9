// Package placeflags says which changes of a place, seen as a checkpoint's
// diff, run code later or open the place to other users of the machine,
// for every path that acts on the person's real files: an in-place run's
// end report (runner) and each call of `sentinel mcp` (internal/mcpserver)
// read the same things with the same code.
//
// What it flags: a file or directory made writable by other users
// (Writable), a new default ACL (DefaultACL), one given to another user
// or group (Owner), and, from Reads (read from
// the place as it was before the coder acted): a changed file the person's
// makefiles include or run make on (Make), an executable made or changed
// in a folder on the person's PATH (OnPath), and a changed executable that
// was there and that the person's Makefile, package.json, justfile or
// .envrc names as a command (Scripts), and a Python module named like a
// standard or -m tool's module at the top of the place or on the person's
// PYTHONPATH (PythonShadows), and a file in a folder on the person's
// PERL5LIB, RUBYLIB, NODE_PATH, GEM_PATH, GEM_HOME or CLASSPATH
// (LibPathShadows).
package placeflags

// Flag is one changed path and why it is flagged.
type Flag struct{ Path, Reason string }

// Dangerous starts the reason of a flag that is DANGEROUS in itself,
// whatever the file holds.
const Dangerous = "DANGEROUS: "
