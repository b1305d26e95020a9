package policy

import "testing"

// TestInlineCodeLiteralWrites: inside the sandbox, a snippet that writes
// files named by plain string literals is judged by where it writes (the
// path rules), not asked for the word "write"; a write whose target is
// computed, or a writable handle from elsewhere, still asks.
func TestInlineCodeLiteralWrites(t *testing.T) {
	ctx := testEnv(t)
	ctx.Sandboxed = true
	e := Default()
	cases := []struct {
		line string
		want Decision
	}{
		{"python3 - <<'EOF'\nfrom pathlib import Path\nPath('src/config.py').write_text('X = 1\\n')\nEOF", Allow},
		{"python3 - <<'EOF'\nwith open('src/out.txt', 'w') as f:\n    f.write('hello\\n')\nEOF", Allow},
		{"python3 - <<'EOF'\nimport json\ndata = json.load(open('x.json'))\nopen('src/y.json', 'w').write(json.dumps(data))\nEOF", Allow},
		{"python3 -c \"open('src/x.py','w').write('print(1)')\"", Allow},
		{"node -e \"const fs = require('fs'); fs.writeFileSync('src/gen.json', '{}')\"", Allow},
		{"python3 - <<'EOF'\nwith open('.envrc', 'w') as f:\n    f.write('x')\nEOF", Ask},
		{"python3 - <<'EOF'\nwith open('/etc/passwd', 'a') as f:\n    f.write('x')\nEOF", Deny},
		{"python3 - <<'EOF'\nopen('.git/hooks/pre-commit', 'w').write('x')\nEOF", Deny},
		{"python3 - <<'EOF'\np = '.en' + 'vrc'\nwith open(p, 'w') as f:\n    f.write('x')\nEOF", Ask},
		{"python3 - <<'EOF'\nfrom pathlib import Path\nPath('.en'+'vrc').open('w').write('x')\nEOF", Ask},
		{"python3 - <<'EOF'\nname = 'vrc'\nopen(f'.en{name}', 'w').write('x')\nEOF", Ask},
		{"python3 - <<'EOF'\nfrom pathlib import Path\nopen('src/a', 'w').write('x')\nPath(p).open('w').write('y')\nEOF", Ask},
		{"python3 - <<'EOF'\nimport io\nio.open('src/a', 'w').write('x')\nEOF", Ask},
		{"python3 - <<'EOF'\nopen('src/a.txt', 'w').write('x')\nimport subprocess\nsubprocess.run(['make'])\nEOF", Ask},
	}
	for _, c := range cases {
		v := e.Check(Query{Kind: KindShell, Command: c.line, Context: ctx})
		if v.Decision != c.want {
			t.Errorf("%q: %s by %s (%s), want %s", c.line, v.Decision, v.Rule, v.Reason, c.want)
		}
	}
	// With the sandbox off (off26, offinline_writes.go) a Python snippet's
	// literal writes are judged as the same writes are off (sed -i, echo >):
	// the allowed workspace writes stay allowed, and nothing that asks or is
	// denied inside the sandbox is allowed off.
	off := ctx
	off.Sandboxed = false
	for _, c := range cases {
		v := e.Check(Query{Kind: KindShell, Command: c.line, Context: off})
		if c.want != Allow && v.Decision == Allow {
			t.Errorf("sandbox off: %q ALLOWED by %s (%s), want %s as inside the sandbox", c.line, v.Rule, v.Reason, c.want)
		}
	}
	if v := e.Check(Query{Kind: KindShell, Command: cases[0].line, Context: off}); v.Decision != Allow {
		t.Errorf("sandbox off: %q: %s by %s (%s), want allow as a write of src/config.py", cases[0].line, v.Decision, v.Rule, v.Reason)
	}
}
