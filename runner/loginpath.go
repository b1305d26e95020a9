package runner

import (
	"os"
	"path/filepath"

	"github.com/sentinelhq/sentinel/sandbox"
)

// A login shell inside the sandbox — Codex runs every command as
// `bash -lc`, and people's own scripts start `bash -l` — reads
// /etc/profile, which on Debian and others sets PATH to the system's
// directories, and then the person's ~/.profile, which would put their
// toolchains back but is not shown inside. The PATH Sentinel started the
// coder with (the person's, its toolchains shown read-only) would be lost:
// `go`, pyenv's `python3` or rustup's `cargo` "command not found". So a
// script Sentinel places last in /etc/profile.d puts that PATH back.

// loginPathScript is the placed script. It reads the PATH from the
// environment (SENTINEL_LOGIN_PATH, set in the profile), so its bytes never
// hold a value; a coder that sets the variable could set PATH anyway.
const loginPathScript = `# Written by Sentinel: a login shell in its sandbox keeps the PATH the run
# started with (the person's), which /etc/profile has just reset.
if [ -n "${SENTINEL_LOGIN_PATH:-}" ]; then PATH=$SENTINEL_LOGIN_PATH; export PATH; fi
`

// loginPathPlace is where the script is shown inside.
const loginPathPlace = "/etc/profile.d/zz-sentinel-path.sh"

// withLoginPath adds the script's place and its variable to prof, when the
// sandbox shows places and this system's login shells read /etc/profile.d.
// The script is written into dir, which the coder never writes.
func withLoginPath(prof sandbox.Profile, mode sandbox.Mode, dir string) sandbox.Profile {
	path := os.Getenv("PATH")
	if !sandbox.PlacesEnforced(mode) || path == "" {
		return prof
	}
	if st, err := os.Stat(filepath.Dir(loginPathPlace)); err != nil || !st.IsDir() {
		return prof
	}
	src := filepath.Join(dir, "login-path.sh")
	if err := os.WriteFile(src, []byte(loginPathScript), 0o644); err != nil {
		return prof // without it a login shell has the system's PATH, as before
	}
	prof.Places = append(prof.Places, sandbox.Place{Path: loginPathPlace, Source: src})
	prof.Env = append(prof.Env, "SENTINEL_LOGIN_PATH="+path)
	return prof
}
