package web

import qrcode "github.com/skip2/go-qrcode"

// QRText is a QR code of link drawn for a terminal with half blocks (two
// rows of modules a line), dark on light so phones read it on any theme.
func QRText(link string) (string, error) {
	q, err := qrcode.New(link, qrcode.Medium)
	if err != nil {
		return "", err
	}
	return q.ToSmallString(false), nil
}
