package patch

import "testing"

// A CI file inside a vendored tree is another project's and is not flagged;
// the same file of this project is, and so is what runs on build anywhere.
func TestVendoredFilesThatRunUnaskedAreNotFlagged(t *testing.T) {
	for p, flagged := range map[string]bool{
		"node_modules/left-pad/.travis.yml":          false,
		"web/node_modules/x/.gitlab-ci.yml":          false,
		"vendor/github.com/a/b/.circleci/config.yml": false,
		"third_party/zlib/Jenkinsfile":               false,
		"Node_Modules/x/.drone.yml":                  false,
		".travis.yml":                                true,
		"sub/.gitlab-ci.yml":                         true,
		"vendor.travis.yml/.travis.yml":              true,
		"node_modules":                               false,
	} {
		if got := RunsCodeLater(p); got != flagged {
			t.Errorf("RunsCodeLater(%q) = %v, want %v", p, got, flagged)
		}
	}
}
