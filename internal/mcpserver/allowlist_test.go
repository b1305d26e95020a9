//go:build unix

package mcpserver

import (
	"errors"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/policy"
)

func TestAllowlist(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := mustConfig(t, f.config(""))
	allowed := []string{
		"git status",
		"git log -1 && git status",
		"ls -la",
		"ls | grep x",
		"git log | head -n 5 | wc -l",
		"ls | sort -r | uniq -c",
		"git log --oneline | cut -d ' ' -f 1",
		"ls 2>&1 | tail -3",
		"ls *.txt",
		"git log $(git rev-parse HEAD)",
		"systemctl status nginx",
		"/usr/bin/git status",
		"timeout 5 git status",
		"bash -c 'git status && ls'",
		"ls > " + f.rw + "/out.txt",
		"ls >/dev/null 2>&1",
		"find . -name '*.go' -exec ls {} ;",
		"(git status; ls)",
		"! git diff --quiet",
	}
	for _, line := range allowed {
		if _, err := c.gateAllowlist(policy.Read(line), f.rw); err != nil {
			t.Errorf("%q refused: %v", line, err)
		}
	}
	refused := map[string]Class{
		"lsof -i":                         ClassNotAllowed,
		"ls$(echo f)":                     ClassNotAllowed,
		"git status; rm -rf /":            ClassNotAllowed,
		"git status && curl x":            ClassNotAllowed,
		"ls | sh":                         ClassPipeNotAllowed,
		"ls | xargs rm":                   ClassPipeNotAllowed,
		"git log | tee /tmp/x":            ClassPipeNotAllowed,
		"ls | sort -o /tmp/x":             ClassPipeNotAllowed,
		"ls | grep -r x /etc":             ClassPipeNotAllowed,
		"ls | grep x /etc/shadow":         ClassPipeNotAllowed,
		"ls | head /etc/shadow":           ClassPipeNotAllowed,
		"ls | sort -o/tmp/x":              ClassPipeNotAllowed,
		"ls | sort --output=/tmp/x":       ClassPipeNotAllowed,
		"ls | sort --compress-program=sh": ClassPipeNotAllowed,
		"ls | grep -f/etc/shadow":         ClassPipeNotAllowed,
		"ls | grep -rx":                   ClassPipeNotAllowed,
		"grep x file":                     ClassNotAllowed,
		"systemctl restart nginx":         ClassNotAllowed,
		"sudo git status":                 ClassNotAllowed,
		"GIT_PAGER=sh git log":            ClassNotAllowed,
		"env GIT_SSH_COMMAND=x git fetch": ClassNotAllowed,
		"git status\nrm -rf /":            ClassMultiLine,
		"git status\r":                    ClassMultiLine,
		"ls &":                            ClassNotAllowed,
		"git log $(rm -rf /)":             ClassNotAllowed,
		"bash -c \"$X\"":                  ClassNotAllowed,
		"sh -c 'ls; rm x'":                ClassNotAllowed,
		"find . -exec rm {} ;":            ClassNotAllowed,
		"ls > /etc/passwd":                ClassPathNotAllowed,
		"ls > " + f.rw + "/../outside/x":  ClassPathNotAllowed,
		"$CMD status":                     ClassNotAllowed,
		"ls > ~/.bashrc":                  ClassPathNotAllowed,
		"g${X}it status":                  ClassNotAllowed,
		"'echo' x | awk '{system($0)}'":   ClassPipeNotAllowed,
		"git status 'unterminated":        ClassUnparseable,
		"./git status":                    ClassNotAllowed,
		"":                                ClassBadInput,

		// env -S spells the command (and its variables) inside one word.
		"env -S 'GIT_SSH_COMMAND=x git fetch'": ClassNotAllowed,
		"env --split-string='ls -la /'":        ClassNotAllowed,
	}
	for line, class := range refused {
		_, err := c.gateAllowlist(policy.Read(line), f.rw)
		var r *Refusal
		if !errors.As(err, &r) || r.Class != class {
			t.Errorf("%q: want a %s refusal, got %v", line, class, err)
			continue
		}
		if r.Use == "" || (class != ClassBadInput && class != ClassUnparseable && r.Rule == "") {
			t.Errorf("%q: the refusal names no rule or no way forward: %v", line, err)
		}
	}
}

// The refusal points at the right tool.
func TestAllowlistNamesTheRightTool(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := mustConfig(t, `allowed_commands = ["git"]
[[paths]]
path = "`+f.rw+`"
access = "rw"
`)
	for line, tool := range map[string]string{
		"cat notes.txt":           "read tool",
		"head -3 notes.txt":       "read tool",
		"grep -r x .":             "search tool",
		"rm notes.txt":            "delete tool",
		"sed -i s/a/b/ notes.txt": "edit tool",
		"mv a b":                  "move tool",
		"systemctl restart web":   "service tool",
		"ls":                      "list tool",
	} {
		_, err := c.gateAllowlist(policy.Read(line), f.rw)
		if err == nil || !strings.Contains(err.Error(), tool) {
			t.Errorf("%q: want the refusal to name the %s, got %v", line, tool, err)
		}
	}
}
