package config

import (
	"fmt"
	"strconv"
)

// PlaceStateFile is the one trust gate for a project's .sentinel/<name>
// (policy.toml, templates.toml) that changes what is allowed: runs, exec,
// `sentinel mcp` and `sentinel policy check` all judge through it. It is
// the path when Sentinel may use the file ("" when it may not) and, when
// it may not, the one line that says so and how to trust it.
//
// checkedRepo says root is a git repository whose .sentinel/ is known not
// to be committed (a run refuses a repository that commits one): there the
// file is the person's unless a coder's in-place run wrote it
// (CoderWrote) or it is reached through a link (StateLinked). Anywhere
// else (a place that is no repository, or a caller that did not check)
// nothing tells the person's file from one the place shipped, so it is
// used only while the person trusted its exact bytes (TrustFile). A
// missing file may be used: Sentinel may create it (templates).
func PlaceStateFile(root string, checkedRepo bool, name string) (path, warning string) {
	path = StateFilePath(root, name)
	coder := CoderWrote(root, name) || StateLinked(root, name)
	if checkedRepo && !coder {
		return path, ""
	}
	sum, present, err := HashFile(path)
	switch {
	case err != nil:
		return "", fmt.Sprintf("%s cannot be read (%v): left out", path, err)
	case !present || FileTrusted(root, name, sum):
		return path, ""
	}
	why := "Sentinel cannot tell your file from one the place shipped"
	if coder {
		why = "a coder's in-place run wrote it, or it is reached through a symbolic link"
	}
	return "", fmt.Sprintf("%s is not trusted (%s): left out; check the file, then trust it with: sentinel config trust --project %s",
		path, why, strconv.Quote(root))
}
