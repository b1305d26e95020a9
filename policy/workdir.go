package policy

import (
	"regexp"
	"strings"
)

// Two kinds of build-tool option that name part of the project, not a
// place or a program (polcorp14, issue 32: the AGENTS.md lines
// `composer install --working-dir tools/phpstan` and `swift build --target
// MyTarget` asked while `npm --prefix web run build`, `pnpm -C web build`
// and `cargo build --target wasm32-unknown-unknown` were allowed):
//
//   - a working-directory option (composer -d/--working-dir, poetry
//     -C/--directory/-P/--project, uv --directory/--project, rake
//     -C/--directory) runs the tool as `cd DIR && tool …` would: DIR is
//     read as any path is (outside the workspace it asks), and the rest of
//     the line is judged as it would be without the option;
//   - swift's --target and deno compile's --target choose a target of the
//     package or a platform triple by name: a bare name (letters, digits,
//     _ . + -, no slash) selects, it names no place. Any other value is
//     left to the generic judgement, which asks.

// workDirOpts are tool's options that set its working directory.
func workDirOpts(tool string) []string {
	switch tool {
	case "composer":
		return []string{"-d", "--working-dir"}
	case "poetry":
		return []string{"-C", "--directory", "-P", "--project"}
	case "uv":
		return []string{"--directory", "--project"}
	case "rake":
		return []string{"-C", "--directory"}
	}
	return nil
}

// workDirArgs takes tool's working-directory options out of args (before
// any "--") and returns the rest and the directories they name. ok is
// false when such an option's value is missing or not static: the line is
// then left as it was.
func workDirArgs(tool string, args []word) (rest []word, dirs []string, ok bool) {
	opts := workDirOpts(tool)
	if len(opts) == 0 {
		return args, nil, true
	}
	rest = make([]word, 0, len(args))
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w.val == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, val, has := strings.Cut(w.val, "=")
		if !contains(opts, name) || !w.static || w.brace || has && !strings.HasPrefix(name, "--") {
			rest = append(rest, w)
			continue
		}
		if !has {
			if i+1 >= len(args) || !args[i+1].static || args[i+1].brace {
				return args, nil, false
			}
			i++
			val = args[i].val
		}
		if val == "" || strings.HasPrefix(val, "-") {
			return args, nil, false
		}
		dirs = append(dirs, val)
	}
	return rest, dirs, true
}

// targetName is a target or platform triple named bare.
var targetName = lazy[*regexp.Regexp]{build: func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.+-]*$`) }}

// selectsTarget: args[i] is tool's --target choosing by name; span is how
// many words it takes (0 when it is not one).
func selectsTarget(tool, verb string, args []word, i int) (span int) {
	if !(tool == "swift" || tool == "deno" && verb == "compile") {
		return 0
	}
	v := args[i].val
	if v == "--target" {
		if i+1 < len(args) && args[i+1].static && !args[i+1].brace && targetName.get().MatchString(args[i+1].val) {
			return 2
		}
		return 0
	}
	if val, ok := strings.CutPrefix(v, "--target="); ok && targetName.get().MatchString(val) {
		return 1
	}
	return 0
}
