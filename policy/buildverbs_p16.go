package policy

// Build tools polcorp16 found unknown or held to their plain build and
// test forms, from domains no older corpus covered: dune (OCaml's build
// system: build, test/runtest, fmt and promote build, test and format the
// project, exec runs one of its programs, describe prints the build),
// xmake (a Lua-configured C/C++ build: bare xmake and build/b build, f and
// config configure the build directory, project writes IDE files, run/r
// runs a target, show prints), buf (protobuf: ls-files prints; its lint,
// format, build, breaking and generate are devtools.go's, generate
// inside the sandbox only), vcpkg (C/C++ packages: install with no
// package names installs what vcpkg.json declares, list prints), hugo and
// mdbook (static site and book generators: bare hugo and build write the
// site, new writes a content file from the project's archetypes, server
// and serve serve it, mdbook test runs the book's code samples), and
// pulumi's preview and stack ls (the program is the project's code and the
// state is read with the backend's credentials, as tofu plan: allowed
// inside the sandbox only). Anything else (dune upgrade, xmake update,
// buf push and dep update, vcpkg add and remove, hugo deploy and mod get,
// pulumi up/destroy/refresh/import and the rest) goes to the tool's earlier
// handler, which asks or denies.

func p16BuildVerbs(p, r, m, run verbClass) map[string]map[string]verbClass {
	return map[string]map[string]verbClass{
		"dune": {"build": p, "test": p, "runtest": p, "fmt": p, "promote": p, "clean": p, "exec": run, "describe": r,
			"installed-libraries": r, "rules": r, "--version": r},
		"xmake": {"": p, "build": p, "b": p, "f": p, "config": p, "project": p, "clean": p, "c": p, "run": run, "r": run,
			"show": r, "--version": r},
		"buf":    {"ls-files": r, "config ls-lint-rules": r}, // lint, format, build, breaking and generate (run: remote plugins) are devtools.go's
		"vcpkg":  {"install": m, "list": r, "version": r, "--version": r, "depend-info": r},
		"hugo":   {"": p, "--minify": p, "build": p, "new": p, "new content": p, "server": run, "serve": run, "version": r, "env": r, "config": r, "list": r},
		"mdbook": {"build": p, "test": p, "serve": run, "watch": p, "clean": p, "--version": r},
		"pulumi": {"preview": run, "pre": run, "stack ls": run, "version": r, "about": r},
	}
}
