// Package sandbox confines a coder's whole process tree: profiles (writable
// roots, hidden and protected paths, network mode), the Linux backends (user,
// mount, pid and network namespaces through Go's clone flags or bubblewrap,
// then a helper — sentinel-helper or the sentinel binary, started once
// inside — that confines one thread (drops capabilities, sets no-new-privs,
// applies Landlock and a seccomp filter) and starts the command from it;
// that side is sandbox/inside, which the helper links without this
// package's host side), the
// egress proxy that is the only way out, macOS Seatbelt profiles, and
// probing what the machine can enforce for `sentinel doctor`.
//
// Layers: the root is a fresh read-only tmpfs showing only system
// locations and the profile's paths (no stray unix sockets), with hidden
// paths emptied, protected paths and Sentinel's state read-only and a
// private /tmp and /dev; Landlock (every filesystem right up to the
// kernel's ABI, and the ABI 6 signal and abstract-socket scopes; no Landlock
// at all is a refusal) limits reads to system and named locations and
// writes to the workspace, /tmp and the agent's state; seccomp refuses ptrace, io_uring, mounts, new namespaces,
// raw sockets and every foreign-architecture call; the network namespace has
// only loopback, where the helper forwards to Sentinel's proxy; processes
// are bounded (Profile.PidsMax, default 4096) by a pids cgroup each helper
// joins where Sentinel may make one and by RLIMIT_NPROC inside the user
// namespace (pids_linux.go). A relative program is found from the
// command's directory; a relative path is never a mount.
//
// What of the person's setup it shows: the toolchains their PATH and the
// toolchains' own variables point at under home, read-only
// (DetectToolchains), and each language's per-user install places (the
// Python user site, gem user dirs, GOBIN, the npm prefix), with the
// credential files beside them hidden; a readable path reached through
// symlinks is shown at its real location with each link on the way made
// again inside (links.go), so the person's own paths lead there; and
// go's own settings (`go env -w`, whose file stays hidden) carried in as
// variables, never a GOPROXY with a password; their tools' update checks
// switched off so they do not ask for the network on their own; build
// caches writable, one set per project in the person's cache dir
// (WithCaches); their git user.name and user.email (GitIdentityEnv), never
// the rest of their git config.
//
// Places (Profile.Places, Linux only) show a file Sentinel wrote read-only
// at a path of its choosing, such as an agent's managed-policy file under
// /etc: a shown directory that lacks the path is spliced (a tmpfs with its
// host entries bound one by one) so the path can be made, then made
// read-only again.
//
// Denied executables (Profile.DeniedExecutables, the user config's
// [service] denied_executables; Linux only) are found outside at Prepare
// and refused inside by Landlock: the locations holding them are granted
// entry by entry, leaving the denied files without execute or read, so
// neither a symlink, a copy, nor the dynamic loader runs them, with no
// window between check and use (execdeny.go says why not seccomp). An exec
// watcher (seccomp user notification on execve/execveat, in the helper)
// witnesses the refusals for the journal (Options.OnExecDeny) and, as a
// second net, refuses byte-identical copies brought in (best effort: the
// wall is Landlock's). Where the list cannot be
// enforced (--sandbox off, other systems, a denied file the coder can
// write) Prepare refuses.
//
// The proxy's refusals explain themselves: a host it will not pass gets 403
// with Sentinel's reason in the X-Sentinel-Denied header and a one-line body
// naming the host and how to allow it (Denial; Options.OnDeny hears each);
// an allowed host it cannot reach gets 502 Bad Gateway with the dial error.
// Profile.Sees answers whether a path is there at all inside, so an
// approval that could not take effect is not offered.
//
// Its lists of what every profile hides, protects and shows (credential
// paths, protected names, system locations, toolchain secrets) are its own,
// unexported (sandbox/inside's too): no other package can change at run time what a coder reaches.
//
// It must not decide policy: unknown hosts are handed to a HostAsker. If the
// machine cannot enforce what a profile asks for, Prepare refuses; it never
// runs a weaker sandbox.
package sandbox
