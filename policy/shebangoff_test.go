//go:build unix

package policy

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestShebangOff: with the sandbox off, a workspace script run directly
// is judged as the line its shebang spells (`./test.sh` with #!/bin/sh is
// `sh ./test.sh`, allowed off by the lead's decision); its unsafe
// neighbours keep asking off, and the sandbox's verdicts do not change.
func TestShebangOff(t *testing.T) {
	ctx := testEnv(t)
	outside := filepath.Join(t.TempDir(), "outside.sh")
	files := map[string]string{
		"test.sh":            "#!/bin/sh\necho hi\n",
		"scripts/build.sh":   "#!/usr/bin/env bash\nset -e\n",
		"scripts/gen.py":     "#!/usr/bin/env python3\nprint(1)\n",
		"scripts/crlf.sh":    "#!/bin/bash\r\necho hi\r\n",
		"tools/run.js":       "#!/usr/bin/env -S node --enable-source-maps\n",
		"tools/task.ts":      "#!/usr/bin/env -S deno run --allow-all\n",
		"bin/ls":             "#!/bin/sh\n",
		"cat":                "#!/bin/sh\n",
		"prog":               "\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\n",
		"noshebang.sh":       "echo hi\n",
		"scripts/x.pl":       "#!/usr/bin/perl\n",
		"scripts/tmp.sh":     "#!/tmp/x/sh\n",
		"scripts/local.js":   "#!/usr/local/bin/node\n",
		"scripts/rel.sh":     "#!./sh\n",
		"scripts/envi.sh":    "#!/usr/bin/env -i bash\n",
		"scripts/envvar.sh":  "#!/usr/bin/env -S ${SHELL} x\n",
		"scripts/envopt.sh":  "#!/usr/bin/env -S -i bash\n",
		"scripts/envone.py":  "#!/usr/bin/env python3 -u\n",
		"scripts/shc.sh":     "#!/bin/sh -c\n",
		"scripts/shs.sh":     "#!/bin/sh -es\n",
		"scripts/eu.sh":      "#!/bin/bash -eu\n",
		"scripts/long.sh":    "#!/bin/sh" + strings.Repeat(" ", 300) + "\n",
		"scripts/nonl.sh":    "#!/bin/sh",
		"scripts/perlenv.pl": "#!/usr/bin/env perl\n",
	}
	files[outside] = "#!/bin/sh\n"
	for f, text := range files {
		p := f
		if !filepath.IsAbs(p) {
			p = filepath.Join(ctx.Workspace, f)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(ctx.Workspace, "scripts/link.sh")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(ctx.Workspace, "scripts/fifo.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	on, off := ctx, ctx
	on.Sandboxed = true
	e := Default()
	check := func(cx Context, l string) Verdict {
		return e.Check(Query{Kind: KindShell, Command: l, Context: cx})
	}
	allowBoth := []string{
		"./test.sh",
		"./test.sh --verbose 2>&1 | tail -n 20",
		"scripts/build.sh",
		"./scripts/build.sh release",
		"(cd scripts && ./build.sh)",
		"scripts/gen.py",
		"scripts/crlf.sh",
		"tools/run.js",
		"scripts/eu.sh",
		"sh ./test.sh",
	}
	for _, l := range allowBoth {
		for _, cx := range []Context{on, off} {
			if v := check(cx, l); v.Decision != Allow {
				t.Errorf("sandbox %v: %q: %s by %s (%s), want allow", cx.Sandboxed, l, v.Decision, v.Rule, v.Reason)
			}
		}
	}
	askOff := []string{
		"./prog",                  // a binary
		"./noshebang.sh",          // no shebang
		"scripts/x.pl",            // perl is not an off interpreter
		"scripts/perlenv.pl",      // nor through env
		"scripts/tmp.sh",          // an interpreter outside the system directories
		"scripts/local.js",        // /usr/local/bin is not a system directory here
		"scripts/rel.sh",          // a relative interpreter
		"scripts/envi.sh",         // env with options
		"scripts/envvar.sh",       // env -S would expand a variable
		"scripts/envopt.sh",       // env -S with env options
		"scripts/envone.py",       // env looks up the program "python3 -u"
		"scripts/shc.sh",          // a shell given options by its shebang
		"scripts/shs.sh",          // -s: the shell reads its input
		"scripts/long.sh",         // a first line beyond the bound
		"scripts/nonl.sh",         // no end of line within the bound
		"scripts/link.sh",         // a link out of the workspace
		"scripts/fifo.sh",         // not a regular file
		outside,                   // outside the workspace
		"./missing.sh",            // no file
		"echo x > y && ./test.sh", // a file written earlier on the line
		"echo 'rm -rf ~' > test.sh && ./test.sh",
		"cp /tmp/evil.sh test.sh && ./test.sh",
	}
	for _, l := range askOff {
		if v := check(off, l); v.Decision == Allow {
			t.Errorf("sandbox off: %q ALLOWED by %s (%s)", l, v.Rule, v.Reason)
		}
	}
	// One risk, one verdict: the file run directly and through the
	// interpreter its shebang names.
	for direct, typed := range map[string]string{
		"./test.sh":                              "sh ./test.sh",
		"scripts/eu.sh release":                  "bash -eu scripts/eu.sh release",
		"scripts/build.sh release":               "bash scripts/build.sh release",
		"tools/run.js":                           "node --enable-source-maps tools/run.js",
		"tools/task.ts":                          "deno run --allow-all tools/task.ts",
		"touch x && ./test.sh":                   "touch x && sh ./test.sh",
		"echo x > y && ./test.sh":                "echo x > y && sh ./test.sh",
		"echo 'rm -rf ~' > test.sh && ./test.sh": "echo 'rm -rf ~' > test.sh && sh ./test.sh",
	} {
		d, ty := check(off, direct), check(off, typed)
		if d.Decision != ty.Decision {
			t.Errorf("sandbox off: %q: %s by %s (%s), but %q: %s by %s", direct, d.Decision, d.Rule, d.Reason, typed, ty.Decision, ty.Rule)
		}
	}
	// A file named like a known program asks in both modes.
	for _, l := range []string{"bin/ls", "./cat /etc/passwd"} {
		for _, cx := range []Context{on, off} {
			if v := check(cx, l); v.Decision == Allow {
				t.Errorf("sandbox %v: %q ALLOWED by %s (%s)", cx.Sandboxed, l, v.Rule, v.Reason)
			}
		}
	}
	// In the sandbox the workspace's code runs, shebang or not, as before.
	for _, l := range []string{"./prog", "./noshebang.sh", "scripts/x.pl", "scripts/tmp.sh", "tools/task.ts"} {
		if v := check(on, l); v.Decision != Allow {
			t.Errorf("sandbox on: %q: %s by %s (%s), want allow", l, v.Decision, v.Rule, v.Reason)
		}
	}
}

func TestShebangArgv(t *testing.T) {
	for line, want := range map[string]string{
		"/bin/sh":                        "sh",
		" /usr/bin/env bash":             "bash",
		"/usr/bin/env -S node --flag":    "node --flag",
		"/usr/bin/python3 -u":            "python3 -u",
		"/bin/bash -e -x":                "",
		"/usr/bin/node --require=/tmp/x": "",
		"/usr/bin/env -S deno run -A":    "deno run -A",
		"/usr/bin/env python3 -u":        "",
		"/usr/bin/env":                   "",
		"/usr/bin/env -S":                "",
		"/usr/bin/env -S 'node' x":       "",
		"/usr/bin/env X=1 node":          "",
		"/opt/x/node":                    "",
		"sh":                             "",
		"/usr/bin/../../tmp/sh":          "",
	} {
		a, ok := shebangArgv(line)
		got := ""
		if ok {
			got = strings.Join(a, " ")
		}
		if got != want {
			t.Errorf("shebangArgv(%q) = %q, want %q", line, got, want)
		}
	}
}
