package sudoedit

import (
	"fmt"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// Default places.
const (
	DefaultConfig = "/etc/sentinel/mcp-sudo.toml"
	DefaultSocket = "/run/sentinel-mcp-sudo.sock"
	defaultBackup = "/var/backups/sentinel-mcp-sudo"
	defaultAudit  = "/var/log/sentinel-mcp-sudo.log"
	defaultMax    = 4 << 20
)

// MaxBytesCeiling is the most max_bytes may be: no file the helper reads
// or writes is bigger.
const MaxBytesCeiling = defaultMax

// Config is the helper's root-owned config.
type Config struct {
	// User is the MCP service's user (name or number): the only one the
	// helper answers.
	User string `toml:"user"`
	// Files are the files it may read and replace, absolute and clean.
	Files []string `toml:"files"`
	// BackupDir holds a copy of each file before each replace.
	BackupDir string `toml:"backup_dir"`
	// Audit is the file every request is recorded in.
	Audit string `toml:"audit"`
	// MaxBytes caps a file's size, read or written.
	MaxBytes int64 `toml:"max_bytes"`

	File string `toml:"-"`
	UID  int    `toml:"-"`
}

// LoadConfig reads the helper's config. The file and every directory
// above it must be root's and writable by no one else: a config the MCP
// service's user could change would let it list any file.
func LoadConfig(path string) (*Config, error) {
	if !filepath.IsAbs(path) {
		return nil, fmt.Errorf("sudo-helper config %s: give an absolute path", path)
	}
	if err := rootOnly(path); err != nil {
		return nil, err
	}
	var c Config
	md, err := toml.DecodeFile(path, &c)
	if err != nil {
		return nil, fmt.Errorf("sudo-helper config %s: %v", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		return nil, fmt.Errorf("sudo-helper config %s: unknown key %q (known: user, files, backup_dir, audit, max_bytes)", path, und[0].String())
	}
	c.File = path
	if c.User == "" {
		return nil, fmt.Errorf("sudo-helper config %s: set user = \"NAME\" (the user the MCP service runs as)", path)
	}
	if c.UID, err = lookupUID(c.User); err != nil {
		return nil, fmt.Errorf("sudo-helper config %s: user %q: %v", path, c.User, err)
	}
	if c.UID == 0 {
		return nil, fmt.Errorf("sudo-helper config %s: user %q is root: the helper is for an unprivileged MCP service", path, c.User)
	}
	for i, f := range c.Files {
		if !filepath.IsAbs(f) || filepath.Clean(f) != f {
			return nil, fmt.Errorf("sudo-helper config %s: files[%d] %q: give an absolute, clean path (no .., no trailing /)", path, i, f)
		}
		// A directory the service user could write would let it swap
		// the file between the checks and the replace.
		if err := rootOnly(filepath.Dir(f)); err != nil {
			return nil, fmt.Errorf("files[%d] %q: its directory must be root's and writable by no one else: %v", i, f, err)
		}
	}
	if c.BackupDir == "" {
		c.BackupDir = defaultBackup
	}
	if c.Audit == "" {
		c.Audit = defaultAudit
	}
	if !filepath.IsAbs(c.BackupDir) || !filepath.IsAbs(c.Audit) {
		return nil, fmt.Errorf("sudo-helper config %s: backup_dir and audit must be absolute paths", path)
	}
	if c.MaxBytes <= 0 {
		c.MaxBytes = defaultMax
	}
	if c.MaxBytes > defaultMax {
		return nil, fmt.Errorf("sudo-helper config %s: max_bytes %d: at most %d", path, c.MaxBytes, defaultMax)
	}
	return &c, nil
}

func lookupUID(name string) (int, error) {
	if n, err := strconv.Atoi(name); err == nil {
		return n, nil
	}
	u, err := user.Lookup(name)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(u.Uid)
}

// listed says whether path is one of the files, exactly.
func (c *Config) listed(path string) bool {
	for _, f := range c.Files {
		if f == path {
			return true
		}
	}
	return false
}

// Example is a commented starter config.
func Example(user string) string {
	return strings.TrimLeft(`
# /etc/sentinel/mcp-sudo.toml: root's, mode 0644 or stricter. The MCP
# service's "edit" tool reaches these files through sentinel mcp sudo-helper.
# Listing a file root runs or trusts (a script, a unit, sudoers, a cron
# file, a binary) gives the MCP service root: list only plain config.
# Setuid/setgid files are refused.
user = "`+user+`"            # the user sentinel-mcp.service runs as; no one else is answered
files = [
  # "/etc/nginx/sites-available/default",
]
# backup_dir = "/var/backups/sentinel-mcp-sudo"
# audit = "/var/log/sentinel-mcp-sudo.log"
# max_bytes = 4194304
`, "\n")
}
