package policy

import "strings"

// Stages that pass a listing on, and can also write it to a file their
// arguments name: `env | sort -o out.txt`, `printenv | uniq - out.txt`,
// `env | less -o log`, awk's print > file, sed's w command. With such an
// argument the stage is a sink (dumpSinks), not a harmless pass-through.

// stageWritesFile reports a stage whose arguments make it write a file.
func stageWritesFile(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	args := argv[1:]
	switch argv[0] {
	case "sort":
		return sortWritesFile(args)
	case "uniq":
		return uniqWritesFile(args)
	case "less":
		for _, a := range args {
			if a == "--" {
				break
			}
			name, _, _ := strings.Cut(a, "=") // written out in full (stageArgv)
			if name == "--log-file" || name == "--LOG-FILE" ||
				!strings.HasPrefix(a, "--") && strings.HasPrefix(a, "-") && strings.ContainsAny(a, "oO") {
				return true
			}
		}
	case "awk", "gawk", "mawk", "nawk", "busybox":
		for _, a := range args {
			if strings.ContainsAny(a, ">|") || strings.Contains(a, "system") || strings.HasPrefix(a, "-i") ||
				strings.HasPrefix(a, "--include") || strings.HasPrefix(a, "-f") {
				return true
			}
		}
	case "sed", "gsed":
		for _, a := range args {
			// w and W write a file, e runs one; judged on any script
			// holding those letters rather than parsing sed's grammar.
			if strings.ContainsAny(a, "wWe") || strings.HasPrefix(a, "-i") || strings.HasPrefix(a, "--in-place") {
				return true
			}
		}
	}
	return false
}

// sortWritesFile: -o FILE, -oFILE, a bundle ending in o (-uo FILE),
// --output[=FILE] (and its abbreviations --o, --ou, …).
func sortWritesFile(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if name, ok := strings.CutPrefix(a, "--"); ok {
			name, _, _ = strings.Cut(name, "=")
			if name != "" && strings.HasPrefix("output", name) {
				return true
			}
			continue
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			continue
		}
		for _, ch := range a[1:] {
			if ch == 'o' {
				return true
			}
			if strings.ContainsRune("ktST", ch) {
				break // the rest is that option's value
			}
		}
	}
	return false
}

// uniqWritesFile: uniq [OPTION]… [INPUT [OUTPUT]] writes its second operand.
func uniqWritesFile(args []string) bool {
	operands := 0
	dashes := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case dashes || !strings.HasPrefix(a, "-") || a == "-":
			operands++
		case a == "--":
			dashes = true
		case a == "-f" || a == "-s" || a == "-w" || a == "--skip-fields" || a == "--skip-chars" || a == "--check-chars":
			i++
		}
	}
	return operands >= 2
}
