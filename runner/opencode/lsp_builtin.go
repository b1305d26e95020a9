package opencode

// opencode (1.18) starts its built-in language servers itself, by file
// type, when the config's "lsp" is true or an object ("an object enables
// the built-ins with overrides"): not through a command of the config, so
// not through the wrapper shell. Such a server runs in opencode's own
// Landlock domain, outside the scope every agent-started process gets,
// from which it could kill the hooks; and some are the project's own
// programs (biome from node_modules/.bin). So a run keeps them off:
// "lsp": true becomes false, and in an object every built-in the person
// did not give a command of their own is {"disabled": true} (the schema's
// per-server form). A server with the person's command stays, started
// through the shell (ScopeArgvServers). Chosen over rewriting them: their
// commands are decided inside opencode at start (a download, a PATH
// lookup, the project's node_modules), so there is nothing in the config
// to rewrite. The cost: no diagnostics from built-in servers in a run
// unless the person names the server's command in their config.

// builtinLSPs are opencode 1.18.33's built-in server ids (its bundle's
// `{id:"…",root:…}` table).
var builtinLSPs = []string{
	"astro", "bash", "biome", "clangd", "clojure-lsp", "csharp", "dart", "deno", "dockerfile",
	"elixir-ls", "eslint", "fsharp", "gleam", "gopls", "haskell-language-server", "jdtls",
	"julials", "kotlin-ls", "lua-ls", "nixd", "ocaml-lsp", "oxlint", "prisma", "pyright", "razor",
	"ruby-lsp", "rust", "sourcekit-lsp", "svelte", "terraform", "texlab", "tinymist", "ty",
	"typescript", "vue", "yaml-ls", "zls",
}

// builtinLSPOff turns the built-in language servers of config m off.
func builtinLSPOff(m map[string]any) {
	switch v := m["lsp"].(type) {
	case bool:
		if v {
			m["lsp"] = false
		}
	case map[string]any:
		for _, id := range builtinLSPs {
			if e, ok := v[id].(map[string]any); ok && e["command"] != nil {
				continue // the person's own command, started through the shell
			}
			v[id] = map[string]any{"disabled": true}
		}
	}
}
