package policy

import "strings"

// fd -x/-X CMD judged as find -exec CMD is (polcorp7 class 2): the command
// runs on every match, so `fd -e rs -x wc -l` is wc -l of workspace files
// and `fd . -x sh -c 'rm -rf ~'` is that shell line. A command that is the
// match itself, a destructive program, or code with a match pasted into it
// asks, as it does for find.

// fdValueShorts are fd's short options that take a value.
const fdValueShorts = "etdEcjSo"

// fdExecStart reports whether the fd argument v starts an exec command
// (-x, -X, --exec, --exec-batch, or a cluster of flags ending in one,
// -Hx), and the command word attached to it (-xwc).
func fdExecStart(v string) (bool, string) {
	switch v {
	case "-x", "-X", "--exec", "--exec-batch":
		return true, ""
	}
	if strings.HasPrefix(v, "--exec=") || strings.HasPrefix(v, "--exec-batch=") {
		_, a, _ := strings.Cut(v, "=")
		return true, a
	}
	if len(v) < 2 || v[0] != '-' || v[1] == '-' {
		return false, ""
	}
	for i := 1; i < len(v); i++ {
		switch c := v[i]; {
		case c == 'x' || c == 'X':
			return true, v[i+1:]
		case strings.IndexByte(fdValueShorts, c) >= 0:
			return false, "" // the rest is this option's value
		}
	}
	return false, ""
}

// fdSplitExecs splits fd's arguments into its own options and operands
// and the exec commands, each running to a ';' or the end.
func fdSplitExecs(rest []word) (opts []word, execs [][]word) {
	for i := 0; i < len(rest); i++ {
		ok, attached := fdExecStart(rest[i].val)
		if !ok {
			opts = append(opts, rest[i])
			continue
		}
		j := i + 1
		for j < len(rest) && rest[j].val != ";" {
			j++
		}
		var inner []word
		if attached != "" {
			inner = append(inner, word{val: attached, static: rest[i].static})
		}
		inner = append(inner, rest[i+1:j]...)
		execs = append(execs, inner)
		i = j
	}
	return opts, execs
}

// fdExecRisks adds find's asks for one exec command.
func fdExecRisks(x *cmdCtx, inner []word) {
	if len(inner) == 0 {
		x.add(Ask, RuleUnknownCommand, "fd -x with no command")
		return
	}
	if strings.Contains(inner[0].val, "{") || !inner[0].static {
		x.add(Ask, RulePathProgram, "fd -x runs every file it matches as a program")
		return
	}
	prog := inner[0].val
	if base, ok := resolvedProgram(prog); ok {
		prog = base
	}
	switch prog {
	case "rm", "shred", "unlink", "truncate", "rmdir", "mv", "dd":
		x.add(Ask, RuleDestructive, "fd -x "+prog+" changes every file fd matches")
	}
	if isCodeRunner(prog) || isVersionedInterp(prog) {
		for _, w := range inner[1:] {
			if strings.Contains(w.val, "{") {
				x.add(Ask, RuleShellDynamicArg, "fd pastes file names into code, so a file name can run commands")
				break
			}
		}
	}
}

// fdFollowCluster reports a cluster of short flags holding -L (-HL).
func fdFollowCluster(v string) bool {
	if len(v) < 3 || v[0] != '-' || v[1] == '-' {
		return false
	}
	for i := 1; i < len(v); i++ {
		switch c := v[i]; {
		case c == 'L':
			return true
		case strings.IndexByte(fdValueShorts, c) >= 0:
			return false
		}
	}
	return false
}

// fdSecretWords are parts of a file name that say it may hold a secret:
// an fd pattern (a regex searched in the name) holding one may match such
// a file.
var fdSecretWords = []string{"env", "key", "secret", "token", "pem", "cred", "passw", "id_", "ssh", "aws", "npmrc",
	"netrc", "pypirc", "p12", "pfx", "keystore", "jks", "kube", "gpg", "pgp", "htpasswd", "auth", "cookie", "history"}

// fdMayMatchSecrets reports that an fd search may hand a file that holds
// secrets to its exec command: hidden or ignored files included (.env is
// both), or a pattern or extension that names or may match a secret file.
// A plain search (`fd -e rs -x wc -l`) sees neither hidden nor ignored
// files.
func fdMayMatchSecrets(opts []word, pattern string) bool {
	cands := []string{pattern}
	for i, a := range opts {
		v := a.val
		if !a.static {
			return true
		}
		switch {
		case v == "-H" || v == "--hidden" || v == "-u" || v == "--unrestricted" || v == "-I" || v == "--no-ignore" ||
			v == "--no-ignore-vcs" || v == "--no-ignore-parent" || strings.HasPrefix(v, "--and") || v == "-p" || v == "--full-path":
			return true
		case len(v) > 2 && v[0] == '-' && v[1] != '-':
			for j := 1; j < len(v); j++ {
				c := v[j]
				if c == 'H' || c == 'u' || c == 'I' || c == 'p' {
					return true
				}
				if strings.IndexByte(fdValueShorts, c) >= 0 {
					if c == 'e' {
						cands = append(cands, "x."+v[j+1:])
					}
					break
				}
			}
		case (v == "-e" || v == "--extension") && i+1 < len(opts):
			cands = append(cands, "x."+opts[i+1].val)
		case strings.HasPrefix(v, "--extension="):
			cands = append(cands, "x."+strings.TrimPrefix(v, "--extension="))
		}
	}
	for _, c := range cands {
		if c == "" {
			continue
		}
		if secretName(c) || aimedAtSecrets(c) {
			return true
		}
		l := strings.ToLower(c)
		for _, w := range fdSecretWords {
			if strings.Contains(l, w) {
				return true
			}
		}
	}
	return false
}
