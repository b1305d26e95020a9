package approvals

import (
	"strings"

	"github.com/sentinelhq/sentinel/policy"
)

// ShellCommand is the shell line a command given as words is judged as:
// for `<shell> -c|-lc SCRIPT` (Codex's ["bash","-lc",SCRIPT]), SCRIPT
// itself where the policy's reader finds that script there (bash, sh, zsh,
// /bin/bash — not ./bash or /tmp/x/bash, which are not the shell);
// otherwise the words quoted as one line (QuoteArgv). A hook sends such a
// command as Request.Argv and the broker makes its Command of it here,
// because a hook does not link the policy.
func ShellCommand(argv []string) string {
	if len(argv) == 3 && (argv[0] == "bash" || argv[0] == "sh" || argv[0] == "zsh" ||
		strings.HasSuffix(argv[0], "/bash") || strings.HasSuffix(argv[0], "/sh")) && (argv[1] == "-lc" || argv[1] == "-c") {
		if script, ok := policy.ShellScript(argv); ok && script == argv[2] {
			return argv[2]
		}
	}
	return quoteArgv(argv)
}

// fromArgv is req as the broker judges and journals it: a shell request
// given as words (Request.Argv) gets its Command from them (ShellCommand),
// whatever Command the client sent, and no request keeps Argv.
func fromArgv(req Request) Request {
	if req.Argv == nil {
		return req
	}
	if req.Kind == policy.KindShell && len(req.Argv) > 0 {
		req.Command = ShellCommand(req.Argv)
	}
	req.Argv = nil
	return req
}
