//go:build !unix

package journal

// noFollow: Windows has no O_NOFOLLOW; a journal path is Sentinel's own
// and no sandboxed coder runs there (no backend), so nothing plants a link.
const noFollow = 0
