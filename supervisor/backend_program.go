package supervisor

import (
	"os"
	"os/exec"
	"strings"

	"github.com/sentinelhq/sentinel/internal/hostbin"
)

// personProgram is the CLI a backend runs on the host: a configured path
// as given, a bare name from the person's own PATH as Sentinel started,
// never from the project or a place a coder can write (hostbin.Person).
func personProgram(name string) (string, error) {
	if strings.ContainsRune(name, '/') {
		return exec.LookPath(name)
	}
	return hostbin.Person(name)
}

// withPersonPATH is env (nil: Sentinel's own) with PATH as the person's
// programs are taken from (hostbin.PersonPATH): what a CLI starts by name
// (its interpreter, through #!/usr/bin/env) is not the project's either.
func withPersonPATH(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PATH=") {
			out = append(out, kv)
		}
	}
	return append(out, "PATH="+hostbin.PersonPATH())
}
