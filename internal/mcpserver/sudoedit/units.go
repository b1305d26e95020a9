package sudoedit

import (
	"fmt"
	"strconv"
	"strings"
)

// Unit names.
const (
	SocketUnit  = "sentinel-mcp-sudo.socket"
	ServiceUnit = "sentinel-mcp-sudo.service"
)

// Units are the systemd socket and service units that run the helper as
// root, started by the first connection to socket. Only user (the MCP
// service's) can open the socket; the helper checks its uid again.
func Units(binary, user, config, socket string) (socketUnit, serviceUnit string) {
	socketUnit = fmt.Sprintf(`[Unit]
Description=Sentinel MCP sudo helper socket (the MCP service's edits of listed root-owned files)

[Socket]
ListenStream=%s
SocketUser=%s
SocketGroup=root
SocketMode=0600
Accept=no
RemoveOnStop=yes

[Install]
WantedBy=sockets.target
`, socket, user)
	serviceUnit = fmt.Sprintf(`[Unit]
Description=Sentinel MCP sudo helper (edits only the files %s lists)
Requires=%s
After=%s

[Service]
Type=simple
ExecStart=%s mcp sudo-helper --config %s
User=root
NoNewPrivileges=yes
PrivateNetwork=yes
PrivateTmp=yes
ProtectHome=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectControlGroups=yes
RestrictAddressFamilies=AF_UNIX
RestrictNamespaces=yes
LockPersonality=yes
MemoryDenyWriteExecute=yes
SystemCallArchitectures=native
CapabilityBoundingSet=CAP_CHOWN CAP_FOWNER CAP_FSETID CAP_DAC_OVERRIDE CAP_DAC_READ_SEARCH
# The helper parses the service user's content as root: bound what it may use.
MemoryMax=512M
TasksMax=32
LimitNOFILE=256
`, config, SocketUnit, SocketUnit, quoteArg(binary), quoteArg(config))
	return socketUnit, serviceUnit
}

// quoteArg quotes a path for ExecStart when it needs it.
func quoteArg(s string) string {
	if strings.ContainsAny(s, " \t\"'\\") {
		return strconv.Quote(s)
	}
	return s
}

// InstallSteps are the commands that put the helper in place, for the
// person to read and run as root.
func InstallSteps(config string) string {
	return fmt.Sprintf(`# as root:
install -d -m 0755 -o root -g root /etc/sentinel
# write %s (root's, 0644) from the example above, listing the files
# write /etc/systemd/system/%s and /etc/systemd/system/%s from above
systemctl daemon-reload
systemctl enable --now %s
# then in the MCP server's config:  [sudo] files = [ the same paths ]
`, config, SocketUnit, ServiceUnit, SocketUnit)
}
