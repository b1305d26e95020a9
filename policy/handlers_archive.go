package policy

import "strings"

// Archives and compressors: what tar, zip, unzip and the compressors
// write, extract or run.

func tarCmd(x *cmdCtx, args []word) {
	rest := args[1:]
	for _, w := range rest {
		for _, bad := range []string{"to-command", "checkpoint-action", "use-compress-program", "rsh-command",
			"info-script", "new-volume-script", "rmt-command", "compress-program", "--lzip=", "--transform-command"} {
			if strings.Contains(w.val, bad) {
				x.add(Deny, RuleToolExec, "tar --"+strings.Trim(bad, "-=")+" runs a program")
				return
			}
		}
	}
	mode := byte(0)
	var archive, dir *word
	var ops []word
	var pendingVal []byte // letters of an old-style cluster still waiting for their values
	valued := "fCTXbHgKLNVIF"
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		a := w.val
		if len(pendingVal) > 0 {
			switch pendingVal[0] {
			case 'f':
				archive = &rest[i]
			case 'C':
				dir = &rest[i]
			case 'T':
				x.read(w)
				x.add(Ask, RulePathUnknown, "tar reads the names of the files to archive from a file")
			case 'X':
				x.read(w)
			case 'g':
				x.write(w)
			}
			pendingVal = pendingVal[1:]
			continue
		}
		switch {
		case a == "--":
			ops = append(ops, rest[i+1:]...)
			i = len(rest)
		case strings.HasPrefix(a, "--"):
			name, val, has := strings.Cut(a[2:], "=")
			takes := contains([]string{"file", "directory", "files-from", "exclude-from", "listed-incremental", "owner", "group", "mode", "mtime", "transform", "xform", "format", "exclude", "blocking-factor", "tape-length", "label", "newer", "after-date", "newer-mtime", "index-file", "volno-file", "checkpoint", "record-size", "strip-components", "sort", "warning", "occurrence", "quoting-style", "suffix", "backup", "hole-detection", "atime-preserve"}, name)
			if takes && !has && name != "checkpoint" && name != "backup" && name != "atime-preserve" {
				if i+1 < len(rest) {
					val = rest[i+1].val
					i++
				}
			}
			switch name {
			case "file":
				archive = &word{val: val, static: w.static}
			case "directory":
				dir = &word{val: val, static: w.static}
			case "files-from":
				x.readStr(val)
				x.add(Ask, RulePathUnknown, "tar reads the names of the files to archive from a file")
			case "exclude-from":
				x.readStr(val)
			case "listed-incremental", "index-file", "volno-file":
				x.writeStr(val)
			case "extract", "get":
				mode = 'x'
			case "create":
				mode = 'c'
			case "list":
				mode = 't'
			case "append", "update", "concatenate", "catenate", "delete":
				mode = 'r'
			case "diff", "compare":
				mode = 't'
			case "absolute-names":
				x.add(Ask, RulePathUnknown, "tar --absolute-names may write anywhere")
			}
		case len(a) > 1 && a[0] == '-' || i == 0 && w.static && !strings.Contains(a, "/") && !strings.Contains(a, "."):
			letters := strings.TrimPrefix(a, "-")
			for j := 0; j < len(letters); j++ {
				c := letters[j]
				switch c {
				case 'x':
					mode = 'x'
				case 'c':
					mode = 'c'
				case 't', 'd':
					mode = 't'
				case 'r', 'u', 'A':
					mode = 'r'
				case 'P':
					x.add(Ask, RulePathUnknown, "tar -P may write anywhere")
				case 'I', 'F':
					x.add(Deny, RuleToolExec, "tar -"+string(c)+" runs a program")
					return
				}
				if strings.IndexByte(valued, c) >= 0 {
					if a[0] == '-' && j+1 < len(letters) {
						v := word{val: letters[j+1:], static: w.static}
						switch c {
						case 'f':
							archive = &v
						case 'C':
							dir = &v
						}
						break
					}
					pendingVal = append(pendingVal, c)
				}
			}
		default:
			ops = append(ops, w)
		}
	}
	if archive != nil && strings.Contains(archive.val, ":") && !strings.HasPrefix(archive.val, "/") && !strings.HasPrefix(archive.val, ".") {
		x.add(Ask, RuleNetTool, "tar with a host:file archive runs a remote shell")
		return
	}
	switch mode {
	case 'x':
		x.add(Allow, RuleFileWrite, "extracts an archive inside the workspace")
		if archive != nil {
			x.read(*archive)
		}
		x.extractTo(dir, ops) // pol7_trees.go: -C .cargo, a member .cargo/config.toml
	case 'c', 'r':
		x.add(Allow, RuleFileWrite, "writes an archive inside the workspace")
		if archive != nil && mode == 'c' {
			x.capturing(func() { x.write(*archive) }) // a product of what it reads, like a build's (tmpdir.go)
		} else if archive != nil {
			x.write(*archive)
		}
		for _, o := range ops {
			if dir != nil && !strings.HasPrefix(o.val, "/") {
				x.read(word{val: dir.val + "/" + o.val, static: o.static && dir.static})
			} else {
				x.read(o)
			}
		}
	case 't':
		x.add(Allow, RuleReadOnly, "lists an archive")
		if archive != nil {
			x.read(*archive)
		}
	default:
		x.add(Ask, RuleUnknownCommand, "a tar form the policy does not know")
	}
}

func zipCmd(x *cmdCtx, args []word) {
	if hasOpt(args[1:], "", "-TT", "--unzip-command") {
		x.add(Deny, RuleToolExec, "zip -TT runs a program")
		return
	}
	x.add(Allow, RuleFileWrite, "writes an archive inside the workspace")
	if hasOpt(args[1:], "@", "--names-stdin") {
		x.add(Ask, RulePathUnknown, "zip -@ reads the names of the files to archive from its input")
	}
	ops := operands(args[1:], "bnOtPsx", []string{"temp-path", "output-file", "password", "split-size", "suffixes", "exclude", "include"})
	for _, v := range longValues(args[1:], "output-file") {
		x.writeStr(v)
	}
	if len(ops) == 0 {
		return
	}
	x.write(ops[0])
	for _, o := range ops[1:] {
		x.read(o)
	}
}

func unzipCmd(x *cmdCtx, args []word) {
	ops := operands(args[1:], "dxP", nil)
	if hasOpt(args[1:], "lvtZz") {
		x.add(Allow, RuleReadOnly, "lists an archive")
		if len(ops) > 0 {
			x.read(ops[0])
		}
		return
	}
	x.add(Allow, RuleFileWrite, "extracts an archive inside the workspace")
	dir, archive, members := unzipPlan(args[1:]) // pol7_trees.go: -od DIR, named members
	if archive != nil {
		x.read(*archive)
	}
	if dir != nil && !dir.static {
		x.add(Ask, RulePathUnknown, "extracts to a directory that cannot be known")
		return
	}
	x.extractTo(dir, members)
}

func compressCmd(x *cmdCtx, args []word) {
	if hasOpt(args[1:], "c", "--stdout", "--to-stdout", "-l", "--list", "-t", "--test") {
		readAll(x, args)
		return
	}
	x.add(Allow, RuleFileWrite, "compresses or expands files inside the workspace")
	for _, w := range operands(args[1:], "S", []string{"suffix"}) {
		x.write(w)
	}
}
