package policy

import "testing"

// TestOffInlineComputeOnly: with the sandbox off, inline code that only
// computes, prints and reads workspace files it names literally, loading
// only the standard library, is allowed; a snippet that reads a secret or
// a file outside the workspace, a path it computes, writes, spawns, reaches
// the network, reads the environment or loads a module whose calls its text
// does not show (import boto3, import mymodule, require('lodash')) asks, as
// all inline code did off (issue 32, pol23 item 5).
func TestOffInlineComputeOnly(t *testing.T) {
	checkOnOff(t, []onOff{
		{`python -c 'print(1+1)'`, Allow, Allow},
		{`python3 -c 'import sys; print(sys.version)'`, Allow, Allow},
		{`python3 -c "import json; print(json.load(open('x.json'))['name'])"`, Allow, Allow},
		{`python3 -c "import json as j, sys; print(j.dumps(sys.version_info[:2]))"`, Allow, Allow},
		{`python3 -c 'from os import path; print(path.sep)'`, Allow, Ask}, // os is not loaded off
		{"python3 - <<'EOF'\nimport json\nprint(json.load(open('x.json'))['name'])\nEOF", Allow, Allow},
		{`node -e "console.log(require('./x.json').version)"`, Allow, Allow},
		{`node -e "console.log(require('path').join('a','b'))"`, Allow, Allow},
		{`node -p "1+1"`, Allow, Allow},
		// Still asked off.
		{`python3 -c "print(open('.env').read())"`, Ask, Ask},
		{`python3 -c "print(open('/srv/app/config.yml').read())"`, Allow, Ask},                              // contained by the sandbox
		{`python3 -c "import pathlib; print(pathlib.Path('/srv/app/config.yml').read_text())"`, Allow, Ask}, // contained by the sandbox
		{`python3 -c "import sys; print(open(sys.argv[1]).read())" /etc/hosts`, Allow, Ask},                 // contained by the sandbox
		{`python3 -c "print(open(f'{x}').read())"`, Allow, Ask},                                             // contained by the sandbox
		{`python3 -c "print(open('../other/x').read())"`, Allow, Ask},                                       // contained by the sandbox
		{`python3 -c "import os; print(os.listdir('/'))"`, Allow, Ask},                                      // contained by the sandbox
		{`python3 -c "import boto3; boto3.client('s3').delete_bucket(Bucket='x')"`, Allow, Ask},             // contained by the sandbox
		{`python3 -c "import json as j, boto3; print(1)"`, Allow, Ask},                                      // contained by the sandbox
		{`python3 -c "import mymodule; mymodule.main()"`, Allow, Ask},
		{`python3 -c "from mymodule import main; main()"`, Allow, Ask},
		{`python3 -c "if 1: import mymodule"`, Allow, Ask},
		{`python3 -c "import urllib.request; urllib.request.urlopen('http://x')"`, Ask, Ask},
		{`python3 -c "import os; print(os.environ)"`, Ask, Ask},
		{`node -e "console.log(require('lodash').VERSION)"`, Allow, Ask},
		{`node -e "console.log(require(process.argv[1]))"`, Allow, Ask}, // contained by the sandbox
		{`node -e "require('child_process').execSync('id')"`, Ask, Ask},
		{`ruby -e 'load "x.rb"'`, Ask, Ask},
		{"echo 'x=1' > mymod.py && python3 -c 'print(1)'", Allow, Ask},
		// Loading or running other code, pipes, paths that leave the workspace.
		{`python3 -c "import sys; sys.path.insert(0, '/tmp'); import json"`, Allow, Ask},
		{`python3 -c "from pathlib import Path; Path('x').replace('/usr/local/bin/x')"`, Allow, Ask},
		{`python3 -c "import pathlib; print(list(pathlib.Path('.').resolve().parent.iterdir()))"`, Allow, Ask},
		{`python3 -c "import configparser; c = configparser.ConfigParser(); c.read('/srv/app/prod.ini'); print(c.sections())"`, Allow, Ask},
		{`ruby -e 'puts open("|id").read'`, Ask, Ask},
		{`ruby -e 'require_relative "x"'`, Ask, Ask},
		{`php -r "require_once('/tmp/evil.php');"`, Ask, Ask},
		{`perl -e 'do "/tmp/x.pl"'`, Ask, Ask},
		{`python3 -c "import pathlib; pathlib.os.chdir('/srv'); print(open('app/prod.ini').read())"`, Ask, Ask},
		{`python3 -c "[c for c in ().__class__.__base__.__subclasses__() if c.__name__ == 'P' + 'open'][0](['id'])"`, Allow, Ask},
		{`node -e "console.log([].fill.constructor('return 1+1')())"`, Allow, Ask},
		{`node -p "require('./x.json')['version']"`, Allow, Ask},
	})
}

// TestOffInlinePrintsThePathAndDrawsTokens (off30): `python -c 'import sys;
// print(sys.path)'` (polcorp13) reads the import path, and the secrets
// module only draws random tokens (polcorp6's probe `python -c "import
// secrets; print(secrets.token_hex(16))"`): both only compute, allowed off.
// Changing sys.path still asks, as before.
func TestOffInlinePrintsThePathAndDrawsTokens(t *testing.T) {
	checkOnOffIn(t, testEnv(t), []onOff{
		{`python -c 'import sys; print(sys.path)'`, Allow, Allow},
		{`cd "$(git rev-parse --show-toplevel)" && python -c 'import sys; print(sys.path)'`, Allow, Allow},
		{`python -c "import secrets; print(secrets.token_hex(16))"`, Allow, Allow},
		{`python -c "import sys; sys.path.insert(0, '/tmp'); print(sys.path)"`, Allow, Ask},
		{`python -c "import sys; sys.path = ['/tmp']; print(sys.path)"`, Allow, Ask},
	})
}
