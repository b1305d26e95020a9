// Package policy decides allow / ask / deny for everything a coder asks to
// do: shell lines (parsed with mvdan.cc/sh, never prefix-matched), writes,
// edits and reads of paths, network hosts and MCP tools. Every answer names
// the deciding rule and a reason.
//
// A shell line is parsed (bash dialect) and every simple command in every
// context is judged on its decoded argv: lists, pipelines, subshells, $(),
// backticks, <() >(), heredocs, function bodies, sh -c / eval / trap / alias
// payloads (re-parsed), and commands behind wrappers (env, timeout, nice,
// xargs, find -exec, …). The strictest part wins. Paths are resolved
// against the working directory (tracking cd) and canonicalized the way
// the kernel resolves symlinks.
//
// It owns the one reading of shell text in Sentinel: no other package
// imports mvdan.cc/sh. reader.go exports it without judging: ReadShell
// splits a line into statements and simple commands with their decoded
// words, Command.Program follows the wrappers the engine follows, and
// Command.Script finds the script of `sh -c` / `bash -lc` / a here-document
// fed to a shell. It is built on the engine's own readWrapper (wrappers.go)
// and readShell (handlers_exec.go), so approvals, the Codex adapter and
// steering never see another program or script than the engine judges
// (FuzzReaderAgreesWithEngine). A caller that asks several questions of
// one line (sentinel mcp's exec gate) parses it once with Read: the
// Reading gives ReadShell's Line and, carried in Query.Reading, is what
// Check walks instead of parsing again; CheckWrites gives a verdict and
// ShellWrites from one walk. Walks only read the syntax tree, so one
// Reading serves every engine and Context (reading.go).
//
// Files: engine.go (Check and structured queries), shell.go (the walk),
// reader.go and reading.go (the exported reading of shell text),
// command.go and wrappers.go (one simple command), handlers_*.go (what each
// program's arguments mean), paths.go, hosts.go, rules.go (TOML rule files
// and user rules), builtin_rules.go (every built-in rule id, as data),
// runlater.toml and runlater.go (the one list of files that run code later,
// which also drives the review's flags and the report's risks),
// offtools.toml and offtools.go (the well-known tools a fetch-and-run may
// download and run with the sandbox off, each with its canonical package),
// envvalue.go (variables judged by their value), tmpdir.go and privatetemp.go (the
// sandbox's private /tmp, the coder's own), inplace.go (deleting work in place or in a copy, and
// databases), ecosystems*.go (everyday tools of every ecosystem),
// heredoctext.go and codewrites.go (text and writes known from the line),
// written.go (whether a part is as written, for templates), fetch.go
// (which package installs fetch from which registry hosts, FetchHosts: the
// caller reads the configured registries and passes them in).
// What bash and getopt do to words before a program sees them is done
// once, for every handler: braces.go expands braces (every reading of
// shell text parses through parseShell), longopts.go and shortopts.go
// write abbreviated long options in full and split short bundles from
// tables generated from the programs' own help (longopts.txt,
// shortopts.txt). classes.go runs the cross-program classes before each
// handler: publish.go (publishing by any build tool) and unseen.go
// (programs, build files and settings read from a stream); dumpenv.go
// keeps print-everything modes (env, set, make -p, …) from reaching a
// file or the network.
//
// It is pure: it must not do I/O beyond reading its rule files and
// resolving paths it judges (lstat/readlink of their components, and one
// stat of node_modules/.bin/NAME inside the workspace for npx). It never
// runs anything and never talks to the network.
package policy
