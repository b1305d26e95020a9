package mcpserver

// The tools' arguments, as the client sends them: each field's
// jsonschema tag is what the client is told about it.

type execArgs struct {
	Command string `json:"command" jsonschema:"one shell line; every command in it must be allowed (see capabilities section=commands)"`
	Cwd     string `json:"cwd,omitempty" jsonschema:"absolute working directory under a configured path (default: the first rw path)"`
}

type pathArgs struct {
	Path string `json:"path" jsonschema:"absolute path under a configured path"`
}

type readArgs struct {
	Path     string `json:"path" jsonschema:"absolute path of a file under a configured path"`
	Offset   int64  `json:"offset,omitempty" jsonschema:"byte offset to start at"`
	MaxBytes int64  `json:"max_bytes,omitempty" jsonschema:"at most this many bytes (capped by the server's max_read_bytes)"`
}

type searchArgs struct {
	Path    string `json:"path" jsonschema:"absolute directory (or file) to search under"`
	Pattern string `json:"pattern" jsonschema:"text to find in lines"`
	Regex   bool   `json:"regex,omitempty" jsonschema:"pattern is a Go (RE2) regular expression"`
	Glob    string `json:"glob,omitempty" jsonschema:"only files whose name matches, e.g. *.conf"`
}

type twoPathArgs struct {
	From      string `json:"from" jsonschema:"absolute source path"`
	To        string `json:"to" jsonschema:"absolute destination path"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"replace an existing destination file"`
}

type deleteArgs struct {
	Path      string `json:"path" jsonschema:"absolute path to delete (a symlink is removed, not its target)"`
	Recursive bool   `json:"recursive,omitempty" jsonschema:"delete a directory and everything in it"`
}

type chmodArgs struct {
	Path string `json:"path" jsonschema:"absolute path of a file or directory (not a symlink)"`
	Mode string `json:"mode" jsonschema:"octal permission bits, e.g. 644 or 755"`
}

type serviceArgs struct {
	Unit   string `json:"unit" jsonschema:"a service named in the config (see capabilities section=services)"`
	Action string `json:"action" jsonschema:"one of the actions the config allows for it"`
}

type playbookArgs struct {
	Name string `json:"name" jsonschema:"a playbook named in the config (see capabilities section=playbooks)"`
}

type helpArgs struct {
	Topic string `json:"topic,omitempty" jsonschema:"a topic or tool name from the index (op:NAME works too); empty for the index"`
	Path  string `json:"path,omitempty" jsonschema:"an absolute path: which tools may act there, and why the others may not"`
}

type capsArgs struct {
	Section  string `json:"section,omitempty" jsonschema:"paths, commands, services, playbooks, limits or network; empty for the summary"`
	Path     string `json:"path,omitempty" jsonschema:"what this server allows at one path"`
	Playbook string `json:"playbook,omitempty" jsonschema:"one playbook in full"`
}
