package e2etest

// GateScenario is a scripted coder's scenario (sentinel run --scenario)
// that writes one file and says it is done: the smallest run that reaches
// the completion review and the adversarial tester.
const GateScenario = `
[[steps]]
id = "w"
write = "feature.txt"
content = "feature\n"

[[steps]]
done = "done, honestly"
`
