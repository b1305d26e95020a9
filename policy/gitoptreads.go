package policy

import "strings"

// gitFileReadOpts names, per git subcommand, the options whose value is a
// file git reads: blame's --contents (printed as the lines of the blamed
// file), its revisions-to-ignore file, a commit, tag, merge or note
// message file, commit's template, grep's pattern file, ls-files' exclude
// file. A short option of one letter is also read attached (-Ffile), as
// git's option parser accepts. --pathspec-from-file is read by every
// subcommand that takes it (its lines come back in error messages).
func gitFileReadOpts(sub string) []string {
	switch sub {
	case "blame", "annotate":
		return []string{"--contents", "--ignore-revs-file", "-S"}
	case "commit":
		return []string{"-F", "--file", "-t", "--template"}
	case "tag", "merge", "notes":
		return []string{"-F", "--file"}
	case "grep":
		return []string{"-f"}
	case "ls-files":
		return []string{"--exclude-from", "-X"}
	}
	return nil
}

// gitOptionReads judges the files git's options read (gitFileReadOpts)
// as the reads they are: a secret or a file outside the workspace is
// judged as reading it with cat would be, in either spelling (--opt FILE,
// --opt=FILE, -oFILE).
func gitOptionReads(x *cmdCtx, sub string, sargs []word) {
	opts := append([]string{"--pathspec-from-file"}, gitFileReadOpts(sub)...)
	for k := 0; k < len(sargs); k++ {
		a := sargs[k]
		v := a.val
		if v == "--" {
			return
		}
		for _, o := range opts {
			switch {
			case v == o:
				if k+1 < len(sargs) {
					x.read(sargs[k+1])
					k++
				}
			case strings.HasPrefix(o, "--") && strings.HasPrefix(v, o+"="):
				x.read(word{val: strings.TrimPrefix(v, o+"="), static: a.static})
			case len(o) == 2 && !strings.HasPrefix(v, "--") && strings.HasPrefix(v, o) && len(v) > 2:
				x.read(word{val: v[2:], static: a.static})
			}
		}
	}
}
