package approvals

import (
	"os"
	"path/filepath"
	"strings"
)

// gem install (and gem update, which installs newer versions) writes the
// gems it fetches into one directory, chosen as RubyGems chooses it:
// --install-dir DIR; with --user-install the user gem directory (~/.gem
// when it exists, else $XDG_DATA_HOME/gem, as RubyGems 3.5 does); else
// GEM_HOME; else the system's gem directory, which the sandbox keeps
// read-only like everything outside the workspace — RubyGems then falls
// back to the user gem directory, so that is where it must write. The
// sandbox shows the user gem directories read-only (toolchains under
// home), so a card for `gem install` there is a yes that cannot take
// effect; a GEM_HOME or --install-dir inside the workspace can.

// gemNeeds is what `gem ARGS` must write in the sandbox, when it installs.
func gemNeeds(args []string, in Inside, home string) []need {
	if len(args) == 0 || (args[0] != "install" && args[0] != "update") {
		return nil
	}
	dir, user := "", false
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-i" || a == "--install-dir":
			if i+1 < len(args) {
				dir = args[i+1]
				i++
			}
		case strings.HasPrefix(a, "--install-dir="):
			dir = strings.TrimPrefix(a, "--install-dir=")
		case strings.HasPrefix(a, "-i") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			dir = a[2:]
		case a == "--user-install":
			user = true
		case a == "--no-user-install":
			user = false
		}
	}
	const fix = "install gems into the project instead (bundle config set --local path vendor/bundle, then bundle install; or gem install --install-dir vendor/gems NAME), or " + outsideFix
	what := "gem " + args[0] + " installs into"
	switch {
	case dir != "":
		if !filepath.IsAbs(dir) {
			return nil // relative to the coder's directory: the workspace's say
		}
		return []need{{Path: dir, What: what, Fix: fix}}
	case !user && in.Getenv("GEM_HOME") != "":
		return []need{{Path: in.Getenv("GEM_HOME"), What: what, Fix: fix}}
	}
	return []need{{Path: gemUserDir(in, home), What: what + " the user gem directory", Fix: fix}}
}

// gemUserDir is RubyGems' user gem directory, without the Ruby version
// under it (the sandbox treats the whole directory alike).
func gemUserDir(in Inside, home string) string {
	old := filepath.Join(home, ".gem")
	if st, err := os.Stat(old); err == nil && st.IsDir() {
		return old
	}
	data := in.Getenv("XDG_DATA_HOME")
	if !filepath.IsAbs(data) {
		data = filepath.Join(home, ".local", "share")
	}
	return filepath.Join(data, "gem")
}
