package approvals

import "github.com/sentinelhq/sentinel/internal/journal"

// The kinds the broker journals (see the package doc for their lanes, text
// and data). Reports from the coder keep the kind they were sent with, one
// of coderstream's report kinds (reportKinds).
const (
	KindRequest           journal.Kind = "request"
	KindDecision          journal.Kind = "decision"
	KindTemplateAdded     journal.Kind = "template-added"
	KindTemplateError     journal.Kind = "template-error"
	KindTemplatesReloaded journal.Kind = "templates-reloaded"
	KindBrokerError       journal.Kind = "broker-error"
	KindRequestFlood      journal.Kind = "request-flood"
	KindRequestFloodEnd   journal.Kind = "request-flood-end"
	KindReportRejected    journal.Kind = "report-rejected"
	// KindFetchHosts: a package install was approved with the registry
	// hosts it needs, allowed for the rest of the run (fetchgrant.go).
	KindFetchHosts journal.Kind = "fetch-hosts"
)

// AsRequest decodes a request the broker journaled, with the policy's
// verdict when there was one.
func AsRequest(ev journal.Event) (RequestEvent, bool) {
	return journal.As[RequestEvent](ev, journal.Approval, KindRequest)
}

// AsDecision decodes a decision the broker journaled.
func AsDecision(ev journal.Event) (Decision, bool) {
	return journal.As[Decision](ev, journal.Approval, KindDecision)
}
