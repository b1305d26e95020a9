package runner

// RunLive says whether run id of p is still at work: its signed record
// says running and its sentinel still holds the run's lock (a record that
// says running with a free lock is a run whose process died).
func RunLive(p *Project, id string) bool {
	m, err := ReadMeta(p, id)
	if err != nil {
		return false
	}
	markGone(p.RunDir(id), m)
	return m.Status == StatusRunning
}
