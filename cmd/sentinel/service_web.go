package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/sentinelhq/sentinel/approvals/queue"
	"github.com/sentinelhq/sentinel/internal/config"
	"github.com/sentinelhq/sentinel/internal/journal"
	"github.com/sentinelhq/sentinel/internal/userstate"
	"github.com/sentinelhq/sentinel/runner/service/web"
)

// defaultWebListen is where the service's page listens unless told: loopback only.
const defaultWebListen = "127.0.0.1:8787"

// webURLFile is where the running service writes its page's address (state
// dir), for `sentinel service pair`.
const webURLFile = "web/url"

// startWeb serves the page for q ([service] web, --listen) and returns the
// push for the queue's nudge. A page that cannot listen is said on stderr;
// the service goes on without it.
func startWeb(ctx context.Context, q *queue.Queue, cfg config.Config, logf func(string)) (func(queue.Entry), error) {
	addr := cfg.Service.Web
	if addr == "off" {
		return nil, nil
	}
	if addr == "" {
		addr = defaultWebListen
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, fmt.Errorf("[service] web / --listen %q: want HOST:PORT (e.g. 127.0.0.1:8787) or off", addr)
	}
	devs, err := web.OpenDevices()
	if err != nil {
		return nil, err
	}
	var j *journal.Journal
	if p, err := userstate.Path("service/web.jsonl"); err == nil && os.MkdirAll(filepath.Dir(p), 0o700) == nil {
		j, _ = journal.Open(p, "web")
	}
	if cfg.Service.WebCert == "" && !loopbackAddr(addr) {
		fmt.Fprintf(os.Stderr, "sentinel service: the page listens on %s over plain HTTP: put your own TLS tunnel or tailnet in front, or set [service] web_cert and web_key\n", addr)
	}
	srv, err := web.New(web.Options{Queue: q, Devices: devs, Journal: j, PublicURL: cfg.Service.WebURL,
		Push: web.Push{URL: cfg.Notify.Push, Topic: cfg.Notify.PushTopic}, Log: logf,
		TLSCert: cfg.Service.WebCert, TLSKey: cfg.Service.WebKey})
	if err != nil {
		return nil, err
	}
	serviceRunning.Add(1)
	go func() {
		defer serviceRunning.Done()
		if j != nil {
			defer j.Close()
		}
		err := srv.Serve(ctx, addr, func(url string) {
			if cfg.Service.WebURL != "" {
				url = strings.TrimRight(cfg.Service.WebURL, "/")
			}
			_ = userstate.WriteFile(webURLFile, []byte(url+"\n"))
			fmt.Fprintf(os.Stderr, "sentinel service: the page is at %s (pair a device: sentinel service pair)\n", url)
		})
		if err != nil {
			logf("the page: " + err.Error())
		}
	}()
	return srv.Notify, nil
}

// loopbackAddr says whether HOST:PORT addr listens on loopback only.
func loopbackAddr(addr string) bool {
	host, _, _ := net.SplitHostPort(addr)
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// serviceWebCmds are `sentinel service pair` and `sentinel service devices`.
func serviceWebCmds() []*cobra.Command {
	var url string
	pair := &cobra.Command{
		Use:   "pair",
		Short: "Pair a phone or browser with the service's page: a one-time code and a QR code",
		Long: `sentinel service pair prints a one-time code (valid for 10 minutes) and a QR code
of the page's pairing link. The device that opens it and names itself gets a
device token; list and revoke devices with sentinel service devices.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			base := strings.TrimRight(url, "/")
			if base == "" {
				p, err := userstate.Path(webURLFile)
				if err != nil {
					return err
				}
				b, err := os.ReadFile(p)
				if err != nil {
					return errors.New("the service's page is not running: start sentinel service (or pass --url with the page's address)")
				}
				base = strings.TrimSpace(string(b))
			}
			devs, err := web.OpenDevices()
			if err != nil {
				return err
			}
			code, err := devs.NewPairCode()
			if err != nil {
				return err
			}
			link := base + "/pair?code=" + code
			qr, err := web.QRText(link)
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprint(out, qr)
			fmt.Fprintf(out, "Open %s on the device (or scan the code),\nname it, and it can answer your agents' requests.\nOne-time code: %s (valid %s)\n", link, code, web.PairTTL)
			return nil
		},
	}
	pair.Flags().StringVar(&url, "url", "", "the page's address as the device reaches it (default: where the running service's page listens)")
	devices := &cobra.Command{
		Use:   "devices [revoke NAME]",
		Short: "List the paired devices, or revoke one",
		Args:  wantArgs(0, 2, "", "sentinel service devices revoke phone"),
		RunE: func(cmd *cobra.Command, args []string) error {
			devs, err := web.OpenDevices()
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			switch {
			case len(args) == 2 && args[0] == "revoke":
				if err := devs.Revoke(args[1]); err != nil {
					return err
				}
				fmt.Fprintf(out, "revoked %s: its token no longer opens the page\n", args[1])
				return nil
			case len(args) > 0:
				return fmt.Errorf("sentinel service devices %s: want no arguments (list) or revoke NAME", strings.Join(args, " "))
			}
			list, err := devs.List()
			if err != nil {
				return err
			}
			if len(list) == 0 {
				fmt.Fprintln(out, "no device is paired (sentinel service pair pairs one)")
			}
			for _, d := range list {
				fmt.Fprintf(out, "%-20s paired %s\n", d.Name, d.Paired.Local().Format("2006-01-02 15:04"))
			}
			return nil
		},
	}
	return []*cobra.Command{pair, devices}
}
