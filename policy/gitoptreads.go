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

// gitShortValueLetters names, per git subcommand, the letters of its
// short options that take a value (the file options of gitFileReadOpts
// among them). In a word of bundled short flags (-aF...), git reads the
// rest of the word after such a letter as its value, so the walk of the
// letters ends there; any other letter is a flag and is passed over.
func gitShortValueLetters(sub string) string {
	switch sub {
	case "blame", "annotate":
		return "LSCM"
	case "commit":
		return "mcCFtuS"
	case "tag":
		return "mFun"
	case "merge":
		return "mFsXS"
	case "notes":
		return "mFcC"
	case "grep":
		return "efABCmO"
	case "ls-files":
		return "xX"
	}
	return ""
}

// gitOptionReads judges the files git's options read (gitFileReadOpts)
// as the reads they are: a secret or a file outside the workspace is
// judged as reading it with cat would be, in either spelling (--opt FILE,
// --opt=FILE, -oFILE, and a short file option bundled after flags,
// -aoFILE or -ao FILE).
func gitOptionReads(x *cmdCtx, sub string, sargs []word) {
	opts := append([]string{"--pathspec-from-file"}, gitFileReadOpts(sub)...)
	for k := 0; k < len(sargs); k++ {
		a := sargs[k]
		v := a.val
		if v == "--" {
			return
		}
		if len(v) > 1 && v[0] == '-' && v[1] != '-' {
			if f, next := gitShortFileValue(sub, opts, v); f != "" {
				x.read(word{val: f, static: a.static})
			} else if next && k+1 < len(sargs) {
				x.read(sargs[k+1])
				k++
			}
			continue
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
			}
		}
	}
}

// gitShortFileValue walks the letters of v, a word of bundled short
// flags, as git's option parser does: a flag is passed over, and the
// first letter that takes a value (gitShortValueLetters) ends the word.
// If that letter is a file option of opts, the rest of the word is the
// file, or, when the rest is empty, next reports that the next word is.
func gitShortFileValue(sub string, opts []string, v string) (file string, next bool) {
	takes := gitShortValueLetters(sub)
	for i := 1; i < len(v); i++ {
		c := v[i]
		isFile := false
		for _, o := range opts {
			if len(o) == 2 && o[0] == '-' && o[1] == c {
				isFile = true
			}
		}
		if isFile {
			return v[i+1:], i+1 == len(v)
		}
		if strings.IndexByte(takes, c) >= 0 {
			return "", false
		}
	}
	return "", false
}
