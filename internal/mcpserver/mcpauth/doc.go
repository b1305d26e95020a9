// Package mcpauth owns OAuth for `sentinel mcp` over HTTP: a small
// authorization server for one person, built so that claude.ai, ChatGPT or
// any MCP client that follows the MCP authorization spec can attach.
//
// It owns the authorization-server metadata (RFC 8414), dynamic client
// registration (RFC 7591), the authorize endpoint (PKCE with S256 only), the
// consent page in the browser — which shows the client, its redirect, the
// tools it may call and the paths the server reaches, and which only the
// person can confirm, with a one-time code printed in their terminal — the
// token endpoint (short-lived opaque access tokens, refresh tokens rotated
// on every use, a replayed refresh token ending its grant), revocation
// (RFC 7009), the token verifier the resource server uses, and the state
// file (clients and grants, tokens only as hashes, 0600 in the user's state
// dir) that `sentinel mcp clients` lists and revokes from. With an
// external issuer instead (external.go) it owns the check of that issuer's
// JWT access tokens against its published keys.
//
// It must not decide what a tool may do: a grant names tools (scopes
// "tool:NAME"), and internal/mcpserver refuses calls outside it. Everything a
// client sends — its name, its redirect URIs, every parameter — is hostile
// input; a check that cannot answer says no.
package mcpauth
