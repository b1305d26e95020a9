package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sentinelhq/sentinel/runner"
	"github.com/sentinelhq/sentinel/runner/patch"
)

// bigDiff is one Go file whose hunks hold n lines in all (7 a hunk).
func bigDiff(n int) []byte {
	var b strings.Builder
	b.WriteString("diff --git a/big.go b/big.go\nindex 1111111..2222222 100644\n--- a/big.go\n+++ b/big.go\n")
	line := 1
	for done := 0; done < n; done += 7 {
		fmt.Fprintf(&b, "@@ -%d,6 +%d,6 @@ func f%d() {\n", line, line, done)
		b.WriteString(" \tx := compute(a, b)\n \tif x > 10 {\n")
		fmt.Fprintf(&b, "-\t\treturn fmt.Sprintf(\"old %%d\", x) // %d\n+\t\treturn fmt.Sprintf(\"new %%d\", x+1) // %d\n", done, done)
		b.WriteString(" \t}\n \tfor i := range items {\n \t\ttotal += items[i].Size\n")
		line += 40
	}
	return []byte(b.String())
}

// BenchmarkReviewFrame draws frames of a 20,000-line diff at 120x40, each
// scrolled one page on, so every frame highlights rows it has not drawn.
func BenchmarkReviewFrame(b *testing.B) {
	files, err := patch.Parse(bigDiff(20000))
	if err != nil {
		b.Fatal(err)
	}
	total := 0
	for _, h := range files[0].Hunks {
		total += len(h.Lines)
	}
	r, m := newLive(NewReplay(testInfo(), nil), Options{Theme: "dark"}, func([]byte) {})
	defer m.close()
	r.update(teaSize(120, 40))
	m.update(reviewMsg{&runner.ReviewRequest{RunID: "bench", Files: files, Answer: make(chan runner.ReviewAnswer, 1)}})
	m.review.focus = focusDiff
	rows := m.review.layout(m.reviewRows()).viewer
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.review.scrollBy(rows, rows)
		if m.review.scroll >= m.review.viewerRows()-rows {
			m.review.scroll = 0
		}
		_ = m.render()
	}
	b.ReportMetric(float64(total), "difflines")
}

// BenchmarkReviewOpen is opening the review of a 20,000-line diff and
// drawing its first frame: the rows are laid out once here.
func BenchmarkReviewOpen(b *testing.B) {
	files, err := patch.Parse(bigDiff(20000))
	if err != nil {
		b.Fatal(err)
	}
	r, m := newLive(NewReplay(testInfo(), nil), Options{Theme: "dark"}, func([]byte) {})
	defer m.close()
	r.update(teaSize(120, 40))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.review, m.reviews = nil, nil
		m.update(reviewMsg{&runner.ReviewRequest{RunID: "bench", Files: files, Answer: make(chan runner.ReviewAnswer, 1)}})
		_ = m.render()
	}
}

// BenchmarkParse20k is reading a 20,000-line diff.
func BenchmarkParse20k(b *testing.B) {
	d := bigDiff(20000)
	b.SetBytes(int64(len(d)))
	for i := 0; i < b.N; i++ {
		if _, err := patch.Parse(d); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReviewFrameCached redraws the same frame: the cost of a frame
// when nothing scrolled (a tick, a status change).
func BenchmarkReviewFrameCached(b *testing.B) {
	files, err := patch.Parse(bigDiff(20000))
	if err != nil {
		b.Fatal(err)
	}
	r, m := newLive(NewReplay(testInfo(), nil), Options{Theme: "dark"}, func([]byte) {})
	defer m.close()
	r.update(teaSize(120, 40))
	m.update(reviewMsg{&runner.ReviewRequest{RunID: "bench", Files: files, Answer: make(chan runner.ReviewAnswer, 1)}})
	_ = m.render()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = m.render()
	}
}
