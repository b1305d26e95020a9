package syntax

import (
	"path"
	"strings"
)

// byExt are the languages known by a file name's extension.
var byExt = map[string]*Lang{
	".go": langGo, ".c": langC, ".h": langC, ".cc": langCpp, ".cpp": langCpp, ".cxx": langCpp,
	".hpp": langCpp, ".hh": langCpp, ".java": langJava, ".kt": langKotlin, ".kts": langKotlin,
	".cs": langCSharp, ".swift": langSwift, ".rs": langRust,
	".js": langJS, ".mjs": langJS, ".cjs": langJS, ".jsx": langJS,
	".ts": langTS, ".tsx": langTS, ".mts": langTS, ".cts": langTS,
	".py": langPython, ".pyi": langPython, ".rb": langRuby, ".rake": langRuby, ".gemspec": langRuby,
	".sh": langShell, ".bash": langShell, ".zsh": langShell, ".ksh": langShell, ".php": langPHP,
	".lua": langLua, ".sql": langSQL, ".yaml": langYAML, ".yml": langYAML, ".toml": langTOML,
	".ini": langINI, ".cfg": langINI, ".conf": langINI, ".properties": langINI, ".env": langINI,
	".json": langJSON, ".jsonc": langJSON, ".json5": langJSON, ".md": langMarkdown, ".markdown": langMarkdown,
	".html": langMarkup, ".htm": langMarkup, ".xml": langMarkup, ".svg": langMarkup, ".vue": langMarkup,
	".xhtml": langMarkup, ".plist": langMarkup, ".css": langCSS, ".scss": langCSS, ".less": langCSS,
	".mk": langMake, ".dockerfile": langDocker,
}

// byName are the languages known by a whole file name.
var byName = map[string]*Lang{
	"Makefile": langMake, "makefile": langMake, "GNUmakefile": langMake,
	"Dockerfile": langDocker, "Containerfile": langDocker,
	"Gemfile": langRuby, "Rakefile": langRuby, "Vagrantfile": langRuby,
	".envrc": langShell, ".bashrc": langShell, ".bash_profile": langShell, ".profile": langShell,
	".zshrc": langShell, ".zprofile": langShell, ".zshenv": langShell,
	"go.mod": langGo, "go.work": langGo, ".gitconfig": langINI, ".editorconfig": langINI,
}

// byInterpreter are the languages a #! line's program names.
var byInterpreter = map[string]*Lang{
	"sh": langShell, "bash": langShell, "zsh": langShell, "dash": langShell, "ksh": langShell,
	"python": langPython, "python3": langPython, "python2": langPython, "ruby": langRuby,
	"node": langJS, "deno": langTS, "bun": langJS, "lua": langLua, "php": langPHP,
}

// ForFile is the language of a file by its name, else by its first line's
// #! program; nil when neither tells (plain text).
func ForFile(name, firstLine string) *Lang {
	base := path.Base(name)
	if l := byName[base]; l != nil {
		return l
	}
	if strings.HasPrefix(base, "Dockerfile.") {
		return langDocker
	}
	if l := byExt[strings.ToLower(path.Ext(base))]; l != nil {
		return l
	}
	return byShebang(firstLine)
}

func byShebang(line string) *Lang {
	rest, ok := strings.CutPrefix(line, "#!")
	if !ok {
		return nil
	}
	f := strings.Fields(rest)
	if len(f) == 0 {
		return nil
	}
	prog := path.Base(f[0])
	if prog == "env" {
		for _, a := range f[1:] {
			if !strings.HasPrefix(a, "-") {
				prog = a
				break
			}
		}
	}
	if l := byInterpreter[prog]; l != nil {
		return l
	}
	return byInterpreter[strings.TrimRight(prog, "0123456789.")]
}
