package patch

// Status is how a file changed.
type Status string

// File statuses.
const (
	Added    Status = "added"
	Modified Status = "modified"
	Deleted  Status = "deleted"
	Renamed  Status = "renamed"
	Mode     Status = "mode" // only the mode changed
)

// File is one file of a patch.
type File struct {
	Path    string // the new path ("b/" side), or the old one for a deletion
	OldPath string // for renames
	Status  Status
	Binary  bool
	OldMode string
	NewMode string
	Adds    int
	Dels    int
	// Flagged files run code later (.envrc, .vscode/, git hooks, CI
	// workflows, shell rc files, new executables…): review sorts them first.
	Flagged    bool
	FlagReason string
	// Header is the file's diff header lines, verbatim, each ending in a
	// newline: "diff --git", modes, index, "---"/"+++". For a binary file it
	// also holds the whole "GIT binary patch" section.
	Header string
	Hunks  []Hunk
}

// Hunk is one @@ section of a file.
type Hunk struct {
	Header string   // the @@ line
	Lines  []string // the body lines, each starting with ' ', '+', '-' or '\'
	// The numbers of the @@ line: where the hunk starts and how many lines
	// it spans on each side.
	OldStart, OldCount, NewStart, NewCount int
	// Section is what follows the second @@ (often the enclosing function).
	Section string
}
