// Package sandbox confines a coder's whole process tree: profiles (writable
// roots, hidden and protected paths, network mode), the Linux backends (user,
// mount, pid and network namespaces through Go's clone flags or bubblewrap,
// then a re-exec helper that applies Landlock and seccomp), the egress proxy
// that is the only way out, macOS Seatbelt profiles, and probing what the
// machine can enforce for `sentinel doctor`.
//
// It must not decide policy: unknown hosts are handed to a HostAsker.
package sandbox
