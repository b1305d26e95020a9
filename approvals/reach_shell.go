package approvals

import (
	"path/filepath"
	"strings"

	"github.com/sentinelhq/sentinel/policy"
)

// The same holds for a shell command that reads a file the sandbox hides
// (`cat .env` where the person's [sandbox] hidden covers .env): approved,
// it would run inside the sandbox and read nothing, and the coder might
// take the empty result for the file's content. A command the policy would
// ask about is denied at once with the reason a file tool gets; a command
// the policy decides keeps that decision.

// fileReaders are commands whose operands (after flags, and after the
// pattern or script for the ones in patternFirst) are files they read.
var fileReaders = map[string]bool{
	"cat": true, "head": true, "tail": true, "less": true, "more": true, "wc": true, "stat": true, "file": true,
	"xxd": true, "od": true, "hexdump": true, "strings": true, "sort": true, "uniq": true, "cut": true, "base64": true,
	"md5sum": true, "sha1sum": true, "sha256sum": true, "source": true, ".": true, "nl": true, "tac": true,
	"grep": true, "egrep": true, "fgrep": true, "rg": true, "sed": true, "awk": true, "jq": true, "diff": true, "cmp": true,
	"cp": true, "bat": true, "view": true, "vi": true, "vim": true, "nano": true,
}

// patternFirst are the readers whose first operand is a pattern or script.
var patternFirst = map[string]bool{"grep": true, "egrep": true, "fgrep": true, "rg": true, "sed": true, "awk": true, "jq": true}

// shellOutOfReach answers a shell command the policy would ask about that
// reads a path the sandbox hides.
func (b *Broker) shellOutOfReach(req Request, v policy.Verdict) (Decision, bool) {
	if b.cfg.Sees == nil || req.Kind != policy.KindShell || v.Decision != policy.Ask {
		return Decision{}, false
	}
	parts, err := splitCommands(req.Command)
	if err != nil {
		return Decision{}, false
	}
	for _, p := range parts {
		for _, f := range readOperands(p.Argv) {
			path := requestPath(Request{Path: f, Cwd: req.Cwd}, b.cfg.Context)
			if path != "" && !b.cfg.Sees(path, false) {
				return denyBy("sandbox", sandboxHides(path)), true
			}
		}
	}
	return Decision{}, false
}

// readOperands are the files a reader command names (none for another
// command): its words after the command that are not flags, less a
// pattern-first command's pattern; "--" ends the flags.
func readOperands(argv []string) []string {
	if len(argv) < 2 || !fileReaders[filepath.Base(argv[0])] {
		return nil
	}
	var out []string
	flags, skip := true, patternFirst[filepath.Base(argv[0])]
	for _, a := range argv[1:] {
		if flags && a == "--" {
			flags = false
			continue
		}
		if flags && strings.HasPrefix(a, "-") && a != "-" {
			continue
		}
		if skip {
			skip = false
			continue
		}
		if a != "-" {
			out = append(out, a)
		}
	}
	return out
}
