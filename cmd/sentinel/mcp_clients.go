package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/internal/mcpserver"
	"github.com/sentinelhq/sentinel/internal/mcpserver/mcpauth"
	"github.com/sentinelhq/sentinel/internal/textsafe"
)

func newMCPClientsCmd() *cobra.Command {
	var configFile, revoke string
	cmd := &cobra.Command{
		Use:   "clients --config FILE [--revoke ID]",
		Short: "List the OAuth clients of a sentinel mcp server, or revoke one",
		Long: `List the clients that registered with this server's built-in OAuth
authorization server ([oauth] in the config): their name (their own word),
where their answers go, the tools the person granted and when they last got a
token. --revoke ID removes a client and every token it holds; the running
server refuses them at once.`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if configFile == "" {
				return usageError{errors.New("--config FILE is required: the config the server runs with")}
			}
			store, err := mcpserver.OAuthClients(configFile)
			if err != nil {
				return err
			}
			out := c.OutOrStdout()
			if revoke != "" {
				if err := store.Revoke(revoke); err != nil {
					return err
				}
				fmt.Fprintf(out, "revoked %s: its tokens no longer work; it must ask for consent again\n", revoke)
				return nil
			}
			list, err := store.Clients()
			if err != nil {
				return err
			}
			printClients(out, list, store.Path())
			return nil
		},
	}
	cmd.Flags().StringVar(&configFile, "config", "", "the server's TOML config (required)")
	cmd.Flags().StringVar(&revoke, "revoke", "", "remove the client with this id and end its tokens")
	return cmd
}

func printClients(w io.Writer, list []mcpauth.ClientView, path string) {
	if len(list) == 0 {
		fmt.Fprintf(w, "no OAuth clients (state: %s)\n", path)
		return
	}
	for _, c := range list {
		granted := "(no consent yet)"
		if len(c.Granted) > 0 {
			granted = strings.Join(c.Granted, " ")
		}
		used := "never"
		if !c.LastUsed.IsZero() {
			used = c.LastUsed.Local().Format(time.DateTime)
		}
		fmt.Fprintf(w, "%s  %q\n  registered %s, last token %s\n  answers to: %s\n  granted: %s\n",
			c.ID, textsafe.Line(c.Name), c.Created.Local().Format(time.DateTime), used,
			textsafe.Line(strings.Join(c.RedirectURIs, " ")), granted)
	}
	fmt.Fprintf(w, "revoke one with: sentinel mcp clients --config FILE --revoke ID\n")
}
