package policy

import "strings"

// Options of Dart, Flutter and Zig that the generic build-argument check
// (buildArgs) refuses by a word inside their name, though they only pick a
// reporter by name, a target platform or triple, or where a compiled
// program is written (polcorp12): dart/flutter test --reporter expanded
// ("repo"), -r expanded (-r is require elsewhere), zig build
// -Dtarget=x86_64-linux-musl and flutter build --target-platform
// android-arm64 ("target"), dart compile exe -o build/app (an output
// option, judged here as the write it is). A value that is not one of the
// names, a triple that is not a plain token, or an output outside the
// workspace still goes where it went.

// dartReporters are the reporters dart test and flutter test take by name.
var dartReporters = wordSet{words: []string{"compact", "expanded", "github", "json", "failures-only", "silent"}}

// flutterPlatforms are the values of flutter build --target-platform.
var flutterPlatforms = wordSet{words: []string{"android-arm", "android-arm64", "android-x64", "android-x86"}}

// moreEverydayArgs is everydayArgs for the tools of this file.
func (x *cmdCtx) moreEverydayArgs(tool, verb string, rest []word) ([]word, bool) {
	switch tool {
	case "dart", "flutter":
		out := namedValueOpt(rest, []string{"--reporter", "-r"}, func(v string) bool { return dartReporters.has(v) })
		out = namedValueOpt(out, []string{"--target-platform"}, func(v string) bool {
			for _, p := range strings.Split(v, ",") {
				if !flutterPlatforms.has(p) {
					return false
				}
			}
			return true
		})
		if tool == "dart" && verb == "compile" {
			out = x.outputFolder(out, "o", "output", false) // the program it writes, judged as a write
		}
		return out, true
	case "zig":
		return namedValueOpt(rest, []string{"-Dtarget"}, func(v string) bool {
			return plainToken(v) && !strings.ContainsAny(v, ":,") // x86_64-linux-musl, native, aarch64-macos.13.0
		}), true
	}
	return rest, true
}

// namedValueOpt drops each option of names (NAME VALUE or NAME=VALUE,
// both static) whose value ok accepts, and keeps every other word.
func namedValueOpt(rest []word, names []string, ok func(string) bool) []word {
	var out []word
	for i := 0; i < len(rest); i++ {
		w := rest[i]
		name, val, has := strings.Cut(w.val, "=")
		if !w.static || w.brace || !setOf(names...)[name] {
			out = append(out, w)
			continue
		}
		if !has {
			if i+1 >= len(rest) || !rest[i+1].static || rest[i+1].brace || !ok(rest[i+1].val) {
				out = append(out, w)
				continue
			}
			i++
			continue
		}
		if !ok(val) {
			out = append(out, w)
		}
	}
	return out
}
