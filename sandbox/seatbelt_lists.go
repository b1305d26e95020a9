package sandbox

// What a Seatbelt profile lets every sandboxed process reach beyond the
// plan's paths, each entry with why. Anything not here stays under the
// profile's (deny default). seatbelt_test.go pins that no entry grows
// without a reason and that the broad forms never appear.

type sbEntry struct{ name, why string }

// seatbeltMachServices are the only Mach services a coder may look up.
// Deliberately absent: com.apple.SecurityServer and securityd (the
// Keychain: a credential store), com.apple.coreservices.appleevents and
// launchservicesd (driving other apps, `open`), com.apple.pasteboard.1
// (the clipboard), cfprefsd (other apps' preferences), the window server
// and every other GUI service.
var seatbeltMachServices = []sbEntry{
	{"com.apple.system.opendirectoryd.libinfo", "user and group lookups (getpwuid: git, ssh, whoami, npm, Python's getpass)"},
	{"com.apple.system.opendirectoryd.membership", "group membership checks (mbr_*, used by access(2) emulation and id)"},
	{"com.apple.trustd.agent", "TLS certificate checks through the proxy (Go, Swift and system curl verify with the Security framework)"},
	{"com.apple.bsd.dirhelper", "the per-user temp and cache directory names (confstr; xcrun behind /usr/bin/git, clang and make asks for them)"},
}

// seatbeltNetHostServices are added only with --net host (no proxy): name
// resolution, which Sentinel's proxy does outside the sandbox otherwise.
var seatbeltNetHostServices = []sbEntry{
	{"com.apple.dnssd.service", "DNS resolution through mDNSResponder"},
	{"com.apple.SystemConfiguration.configd", "the resolver and proxy configuration"},
	{"com.apple.SystemConfiguration.DNSConfiguration", "the resolver configuration"},
}

// seatbeltSysctls are the kernel values a coder may read: the machine's
// shape and the OS version, which runtimes ask at start-up. No kern.proc.*
// or kern.procargs*: those describe other processes (their arguments and
// environment).
var seatbeltSysctls = []sbEntry{
	{"hw.", "CPU count, page size, memory size and CPU features (every runtime sizes its thread pools and allocator from these)"},
	{"machdep.cpu.", "the CPU's brand and features (compilers pick instructions)"},
	{"kern.ostype", "uname"},
	{"kern.osrelease", "uname"},
	{"kern.osversion", "uname"},
	{"kern.version", "uname"},
	{"kern.osproductversion", "the macOS version (toolchains pick an SDK)"},
	{"kern.osvariant_status", "libSystem's start-up"},
	{"kern.hostname", "gethostname"},
	{"kern.argmax", "the longest command line (xargs, make, the Go and Rust toolchains)"},
	{"kern.maxfilesperproc", "file descriptor limits (Node, Go)"},
	{"kern.maxproc", "process limits"},
	{"kern.usrstack64", "the stack's address (thread libraries)"},
	{"kern.secure_kernel", "libSystem's start-up"},
	{"kern.boottime", "uptime (Node's os.uptime, Python's time)"},
	{"sysctl.proc_cputype", "the process's architecture (universal binaries)"},
	{"sysctl.proc_translated", "whether the process runs under Rosetta (Go, Node and Homebrew check)"},
	{"vm.loadavg", "the load average (make -l, Node's os.loadavg)"},
}

// seatbeltSystem are the macOS locations every sandboxed process may read
// and execute from. The home directory is deliberately absent, and so are
// /Library/Keychains, /private/var/db (but for the two entries below) and
// /private/tmp (the shared temp: the coder gets its own TempDir).
var seatbeltSystem = []sbEntry{
	{"/usr", "the system's programs and libraries; /usr/local holds Homebrew on Intel Macs"},
	{"/bin", "the system's shells and core programs"},
	{"/sbin", "the system's programs"},
	{"/System", "the OS itself, including the dyld shared cache"},
	{"/Library/Developer", "the Command Line Tools (git, clang, make behind the /usr/bin shims)"},
	{"/Library/Apple", "system extensions Apple installs (Rosetta's libraries)"},
	{"/Library/Frameworks", "framework installs of Python, Mono and others"},
	{"/Library/Java", "installed JDKs"},
	{"/opt", "Homebrew on Apple silicon (/opt/homebrew) and MacPorts (/opt/local)"},
	{"/private/etc", "the system's configuration (its secrets are hidden: see seatbeltSystemHidden)"},
	{"/private/var/db/timezone", "time zone data (/usr/share/zoneinfo points here)"},
	{"/private/var/select", "xcode-select's choice of developer directory (macOS 13 and later)"},
	{"/private/var/db/xcode_select_link", "xcode-select's choice of developer directory (earlier macOS)"},
}

// seatbeltSystemHidden are macOS's machine-wide secrets, hidden even where a
// readable location covers them (as systemHidden on Linux).
var seatbeltSystemHidden = []string{
	"/private/etc/master.passwd", "/private/etc/sudoers", "/private/etc/sudoers.d", "/private/etc/ssh",
	"/private/etc/krb5.keytab", "/Library/Keychains",
}

// seatbeltHomeHidden are macOS's per-user credential stores, relative to
// home, hidden on top of the credential list every profile hides
// (credentialPaths): nothing under home is readable unless the profile
// makes it so, and these stay hidden even then.
var seatbeltHomeHidden = []string{
	"Library/Keychains", "Library/Cookies", "Library/Safari", "Library/Mail", "Library/Messages",
	"Library/Application Support/Google/Chrome", "Library/Application Support/Firefox",
	"Library/Application Support/BraveSoftware", "Library/Application Support/Microsoft Edge",
	"Library/Application Support/com.apple.TCC", "Library/Group Containers",
}
