package runner

import (
	"fmt"
	"strconv"

	"github.com/sentinelhq/sentinel/approvals"
	"github.com/sentinelhq/sentinel/internal/config"
)

// A place that is not a git repository (an unpacked archive, a downloads
// folder) may ship a .sentinel/ of its own: a policy.toml that allows, a
// templates.toml that remembers a host. In a repository a committed
// .sentinel/ is refused (CheckStateUntracked), so what is there is the
// person's; elsewhere nothing tells the person's files from the place's,
// so each is used only once the person trusted its exact bytes (sentinel
// config trust, which records their hash outside the place), as a
// repository's config.toml is. config.toml itself is held the same way by
// internal/config (its widening settings wait for trust).

// placeStateFile is the path of p's .sentinel/<name> when a run may use it
// ("" when it may not) and, when it may not, the one line that says so
// and how to trust it. In a repository a file a coder wrote (from a run
// in a folder holding it: config.CoderWrote) needs trust too. A missing
// file may be used: Sentinel creates it
// (templates) and trusts what it writes (trustWrites).
func placeStateFile(p *Project, name string) (path, warning string) {
	path = config.StateFilePath(p.Root, name)
	coder := config.CoderWrote(p.Root, name) || config.StateLinked(p.Root, name)
	if p.GitDir != "" && !coder {
		return path, ""
	}
	sum, present, err := config.HashFile(path)
	switch {
	case err != nil:
		return "", fmt.Sprintf("%s cannot be read (%v): running without it", path, err)
	case !present || config.FileTrusted(p.Root, name, sum):
		return path, ""
	}
	why := "this place is not a git repository, so Sentinel cannot tell your file from one the place shipped"
	if coder {
		why = "a coder's in-place run wrote it, or it is reached through a symbolic link"
	}
	return "", fmt.Sprintf("%s is not trusted (%s): running without it; check the file, then trust it with: sentinel config trust --project %s",
		path, why, strconv.Quote(p.Root))
}

// trustWrites keeps what Sentinel itself writes into p's project template
// file trusted, in a place that is not a git repository: a remembered
// template or a use count must not make the person's own file untrusted
// (nor, in a repository, a file a coder's mark left untrusted when it was
// missing and Sentinel made it).
func trustWrites(p *Project, set *approvals.TemplateSet) {
	if p.GitDir != "" && !config.CoderWrote(p.Root, "templates.toml") {
		return
	}
	set.OnWrite(func(sc approvals.Scope, file string) {
		if sc != approvals.ScopeProject || file != config.StateFilePath(p.Root, "templates.toml") {
			return
		}
		if sum, present, err := config.HashFile(file); err == nil && present {
			_ = config.TrustFile(p.Root, "templates.toml", sum) // untrusted next run at worst, and it says so
		}
	})
}
