package policy

import (
	"path/filepath"
	"strings"
)

// Variables a tool reads as its own command-line arguments:
// `MAVEN_ARGS=deploy mvn test` runs `mvn deploy test` (Maven 3.9 adds
// MAVEN_ARGS to the command line; the Maven wrapper does the same with
// MAVEN_CONFIG), `TF_CLI_ARGS_apply=-auto-approve terraform apply` runs
// `terraform apply -auto-approve`. When the command is that tool, the
// value's words are judged as arguments it was given, so a publish or
// deploy spelled through the environment is denied as the same argument
// on the command line is. The variable itself is still judged by
// envVarFinding (it asks unless known).

// envArgTools gives, per variable, the tools that read it as arguments.
func envArgTools(name string) []string {
	switch {
	case name == "MAVEN_ARGS" || name == "MAVEN_CONFIG":
		return []string{"mvn", "mvnw", "mvnd"}
	case name == "TF_CLI_ARGS" || strings.HasPrefix(name, "TF_CLI_ARGS_"):
		return []string{"terraform", "tofu"}
	case name == "PYTEST_ADDOPTS":
		return []string{"pytest", "py.test"}
	case name == "GRADLE_CLI_OPTS":
		return []string{"gradle", "gradlew"}
	}
	return nil
}

// withEnvArgs returns words with the words of every tool-argument
// variable among assigns added after the tool's name (after the
// subcommand for TF_CLI_ARGS_<sub>, which terraform reads only for it).
func withEnvArgs(assigns []string, words []word) []word {
	if len(words) == 0 || len(assigns) == 0 {
		return words
	}
	base := filepath.Base(programBase(words[0].val))
	for _, a := range assigns {
		name, val, _ := strings.Cut(a, "=")
		if !contains(envArgTools(name), base) {
			continue
		}
		fields := strings.Fields(val)
		if len(fields) == 0 {
			continue
		}
		at := 1
		if sub, ok := strings.CutPrefix(name, "TF_CLI_ARGS_"); ok {
			at = -1
			for i, w := range words[1:] {
				if w.val == sub {
					at = i + 2
					break
				}
			}
			if at < 0 {
				continue // for another subcommand
			}
		}
		extra := make([]word, len(fields))
		for i, f := range fields {
			extra[i] = word{val: f, static: true}
		}
		out := append(append(append([]word(nil), words[:at]...), extra...), words[at:]...)
		words = out
	}
	return words
}
