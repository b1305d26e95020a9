package policy

import (
	"os"
	"path/filepath"
	"strings"
)

// canonical resolves symlinks along the absolute path p component by
// component, the way the kernel would (so "link/.." is the parent of the
// link's target, not of the link), stopping at the first component that
// does not exist; the remainder is appended lexically.
func canonical(p string) string {
	if !strings.HasPrefix(p, "/") {
		return filepath.Clean(p)
	}
	return canonicalFrom("/", strings.Split(p, "/"))
}

// perProcessLink reports the links whose target depends on the process
// that follows them (/dev/stdin, /dev/fd, /proc/self, /proc/PID): read
// here they name the policy's own descriptors, not the command's.
func perProcessLink(p string) bool {
	switch p {
	case "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/fd", "/proc/self", "/proc/thread-self":
		return true
	}
	pid, ok := strings.CutPrefix(p, "/proc/")
	return ok && isDigits(pid)
}

// canonicalFrom resolves rest below resolved, which must be canonical.
func canonicalFrom(resolved string, rest []string) string {
	hops := 0
	for len(rest) > 0 {
		c := rest[0]
		rest = rest[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			resolved = filepath.Dir(resolved)
			continue
		}
		next := filepath.Join(resolved, c)
		if perProcessLink(next) {
			// /dev/stdin, /proc/self/…: the link names this process's
			// own files, not the coder's; the lexical path is the place.
			return filepath.Join(append([]string{next}, rest...)...)
		}
		fi, err := os.Lstat(next)
		if err != nil {
			// Does not exist (or unreadable): the remainder is lexical.
			return filepath.Join(append([]string{next}, rest...)...)
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			resolved = next
			continue
		}
		hops++
		target, err := os.Readlink(next)
		if err != nil || hops > 40 {
			return "" // a link loop: the location cannot be known
		}
		if filepath.IsAbs(target) {
			resolved = "/"
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	return resolved
}

// rawJoin joins a directory and a path without lexical cleaning, which
// would be wrong across symlinks.
func rawJoin(dir, p string) string {
	if strings.HasPrefix(p, "/") {
		return p
	}
	return dir + "/" + p
}

// lexical is p with its dot-dots taken by name, as bash's cd takes them,
// in the same terms as canon (the workspace by its resolved name): p's
// canon when no symbolic link is on the way.
func (c *checkEnv) lexical(p string) string {
	p = filepath.Clean(p)
	if c.wsRaw != "" && (p == c.wsRaw || strings.HasPrefix(p, c.wsRaw+"/")) {
		return c.ws + p[len(c.wsRaw):]
	}
	return p
}

// canon is canonical with two savings that keep a decision fast: the
// workspace prefix is never re-resolved (its ancestors are outside the
// coder's reach), and results are remembered for the rest of this Check.
func (c *checkEnv) canon(p string) string {
	if v, ok := c.memo[p]; ok {
		return v
	}
	var out string
	switch {
	case c.wsRaw != "" && (p == c.wsRaw || strings.HasPrefix(p, c.wsRaw+"/")):
		out = canonicalFrom(c.ws, strings.Split(p[len(c.wsRaw):], "/"))
	case c.ws != "" && (p == c.ws || strings.HasPrefix(p, c.ws+"/")):
		out = canonicalFrom(c.ws, strings.Split(p[len(c.ws):], "/"))
	default:
		out = canonical(p)
	}
	if c.memo == nil {
		c.memo = make(map[string]string, 8)
	}
	c.memo[p] = out
	return out
}

// within reports whether p is root or below it (both clean and absolute).
func within(p, root string) bool {
	if root == "" {
		return false
	}
	if p == root || root == "/" {
		return true
	}
	return strings.HasPrefix(p, root+"/")
}

// rel returns p relative to root when within it ("" for root itself).
func rel(p, root string) string {
	if p == root {
		return ""
	}
	return strings.TrimPrefix(p, root+"/")
}

// credentialDirs are locations below the home directory that hold secrets.
var credentialDirs = []string{
	".ssh", ".aws", ".azure", ".kube", ".config/gh", ".gnupg", ".password-store",
	".docker/config.json", ".netrc", ".git-credentials", ".config/gcloud",
	".npmrc", ".pypirc", ".cargo/credentials", ".cargo/credentials.toml",
	".gem/credentials", ".vault-token", ".terraform.d/credentials.tfrc.json",
	".config/hub", ".local/share/keyrings", ".mozilla", ".config/google-chrome",
	".config/chromium", ".config/BraveSoftware", "Library/Keychains",
	"Library/Application Support/Google/Chrome", "Library/Cookies",
	".config/sentinel", ".sentinel", ".bash_history", ".zsh_history",
	".python_history", ".psql_history", ".mysql_history", ".pgpass", ".my.cnf",
	".config/op", ".1password", ".authinfo", ".authinfo.gpg", ".claude.json",
	".claude/.credentials.json", ".codex/auth.json", ".config/rclone",
	".s3cfg", ".boto", ".oci", ".config/doctl", ".fly", ".wrangler",
}

// systemSecrets are absolute locations that hold secrets or let a reader
// take over the machine.
var systemSecrets = []string{
	"/etc/shadow", "/etc/gshadow", "/etc/shadow-", "/etc/gshadow-", "/etc/sudoers",
	"/etc/sudoers.d", "/etc/ssh", "/etc/ssl/private", "/root", "/var/run/secrets",
	"/run/secrets", "/proc/self/environ", "/proc/self/mem", "/dev/mem", "/dev/kmem",
	"/dev/port", "/etc/security/opasswd", "/var/lib/sss", "/etc/krb5.keytab",
}

// SecretName says whether a file's base name usually holds secrets wherever
// it is (.env, id_rsa, credentials, *.pem, …): the policy makes reading one
// person-only, and nothing Sentinel sends a model may carry its content.
func SecretName(base string) bool { return secretName(base) }

// secretNames are file names that usually hold secrets wherever they are.
func secretName(base string) bool {
	base = foldName(base)
	switch base {
	case ".env", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "credentials",
		".netrc", ".git-credentials", ".pgpass", "secrets.yaml", "secrets.yml",
		"secrets.json", ".npmrc", ".pypirc", "kubeconfig", "environ":
		return true
	}
	lower := strings.ToLower(base)
	if strings.HasPrefix(lower, "credentials") || strings.HasPrefix(lower, "secrets") || strings.HasSuffix(lower, ".tfstate") ||
		strings.HasPrefix(lower, "service-account") || strings.HasPrefix(lower, "serviceaccount") {
		return true
	}
	if templateName(base) {
		return false // .env.example, secrets.sample.yaml: the shape, not the values
	}
	if strings.HasPrefix(base, ".env.") || strings.HasPrefix(base, "id_rsa") ||
		strings.HasPrefix(base, "id_ed25519") || strings.HasPrefix(base, "id_ecdsa") {
		return true
	}
	for _, ext := range []string{".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".kdbx", ".gpg", ".asc"} {
		if strings.HasSuffix(base, ext) {
			return true
		}
	}
	return false
}

// isCredential reports whether p (canonical) is a credential location.
func (c *checkEnv) isCredential(p string) bool {
	if c.home != "" && within(p, c.home) {
		r := foldPath(rel(p, c.home))
		for _, d := range credentialDirs {
			d = foldPath(d)
			if r == d || strings.HasPrefix(r, d+"/") {
				return true
			}
		}
	}
	for _, d := range systemSecrets {
		// A workspace that lives below one of these (say /root/project)
		// is the person's choice; only the secret itself counts then.
		if within(p, d) && !within(c.ws, d) {
			return true
		}
	}
	if strings.HasPrefix(p, "/proc/") {
		// /proc/<pid>/environ, mem, cmdline, root, cwd, fd of other processes.
		parts := strings.Split(p, "/")
		own := len(parts) >= 4 && (parts[2] == "self" || parts[2] == "thread-self") && parts[3] == "fd"
		if len(parts) >= 4 && !own { // the command's own descriptors are streams (unseen.go)
			switch parts[3] {
			case "environ", "mem", "root", "cwd", "fd", "map_files", "auxv", "cmdline":
				return true
			}
		}
	}
	return false
}

// pathVerdict judges one access to the already-resolved canonical path p.
func (c *checkEnv) pathVerdict(p string, write bool) finding {
	if p == "" {
		return finding{Ask, RulePathUnknown, "a path whose location cannot be known"}
	}
	if write {
		switch p {
		case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero":
			return finding{Allow, RulePathWriteWorkspace, "writes to " + p}
		}
		if strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/self/fd/") {
			return finding{Allow, RulePathWriteWorkspace, "writes to an open file descriptor"}
		}
	}
	if c.isCredential(p) {
		return finding{Deny, RulePathCredential, "touches a credential location (" + c.show(p) + ")"}
	}
	inWS := within(p, c.ws)
	if !inWS {
		for _, w := range c.writable {
			if within(p, w) {
				if write {
					return finding{Allow, RulePathWriteWorkspace, "writes inside an extra writable root"}
				}
				return finding{Allow, RulePathReadWorkspace, "reads inside an extra writable root"}
			}
		}
		if c.tempOwn(p) { // privatetemp.go
			return c.tempVerdict(p)
		}
		if write {
			return finding{Deny, RulePathWriteOutside, "writes outside the workspace (" + c.show(p) + ")"}
		}
		if p == "/dev/null" || p == "/dev/zero" || p == "/dev/urandom" || p == "/dev/random" || p == "/dev/stdin" {
			return finding{Allow, RulePathReadWorkspace, "reads " + p}
		}
		if c.readableOutside(p) && !secretName(filepath.Base(p)) {
			return finding{Allow, RulePathReadWorkspace, "reads " + c.show(p) + ", a system or toolchain location that holds no secrets"}
		}
		return finding{Ask, RulePathReadOutside, "reads outside the workspace (" + c.show(p) + ")"}
	}
	r := rel(p, c.ws)
	fr := foldPath(r) // protected names are compared case- and Unicode-folded
	base := filepath.Base(p)
	if !write {
		if secretName(base) {
			return finding{Ask, RulePathReadSecret, "reads a file that usually holds secrets (" + r + ")"}
		}
		return finding{Allow, RulePathReadWorkspace, "reads inside the workspace"}
	}
	if r == "" {
		return finding{Ask, RulePathWriteRoot, "changes the workspace root itself"}
	}
	if fr == ".git" || strings.HasPrefix(fr, ".git/") || fr == ".sentinel" || strings.HasPrefix(fr, ".sentinel/") ||
		strings.Contains("/"+fr+"/", "/.git/hooks/") {
		return finding{Deny, RulePathWriteProtected, "writes into " + r + ", which git or Sentinel runs or trusts"}
	}
	if e, ok := runLater(r); ok {
		return finding{Ask, RulePathWriteRunLater, "writes " + r + ", a file that runs code later (" + e.Reason + ")"}
	}
	if strings.Contains("/"+fr, "/.git/") {
		return finding{Ask, RulePathWriteRunLater, "writes " + r + ", inside a nested git directory (its hooks and config run code later)"}
	}
	return finding{Allow, RulePathWriteWorkspace, "writes inside the workspace"}
}

// show renders p for a reason: ~-relative when below home.
func (c *checkEnv) show(p string) string {
	if c.home != "" && within(p, c.home) && p != c.home {
		return "~/" + rel(p, c.home)
	}
	if p == c.home && p != "" {
		return "~"
	}
	return p
}

// templateName reports a file that documents secrets rather than holding
// them: .env.example, .env.sample, .env.template, .env.dist,
// credentials.example.json, id_rsa.pub.
func templateName(base string) bool {
	if strings.HasSuffix(base, ".pub") {
		return true
	}
	for _, part := range strings.Split(base, ".")[1:] {
		switch part {
		case "example", "examples", "sample", "template", "tmpl", "dist", "defaults", "schema":
			return true
		}
	}
	return false
}

// readableOutside are locations outside the workspace that hold no
// secrets and that coders read all day: the system's programs, libraries
// and documentation, the Go and Rust toolchains and module caches.
func (c *checkEnv) readableOutside(p string) bool {
	if within(p, "/usr/local/etc") {
		return false
	}
	for _, d := range []string{"/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/opt/homebrew/Cellar", "/opt/homebrew/opt"} {
		if within(p, d) {
			return true
		}
	}
	switch p {
	case "/etc/os-release", "/etc/lsb-release", "/etc/debian_version", "/etc/alpine-release", "/proc/cpuinfo", "/proc/meminfo", "/proc/version":
		return true
	}
	if c.home != "" {
		// Toolchains' installed programs and downloaded packages: what
		// `ls ~/.cargo/bin` or `ls ~/.m2/repository/org/x` lists holds
		// no secrets (~/.m2/settings.xml and ~/.cargo/credentials* are
		// beside these, not in them).
		for _, d := range []string{"go/pkg/mod", ".cargo/registry/src", ".cargo/git/checkouts", ".rustup/toolchains", "sdk",
			".cargo/bin", "go/bin", ".m2/repository", ".pyenv/versions", ".nvm/versions", ".rbenv/versions"} {
			if within(p, c.home+"/"+d) {
				return true
			}
		}
	}
	return false
}
