package model

import "fmt"

// CodeTimeToLoss: at the rates `check --sample` measured, retention deletes
// records the group has not read within the risk window (docs/timeaxis.md).
const CodeTimeToLoss = "time-to-loss"

// checkLoss fails a partition whose predicted loss falls within the risk
// window. It needs a time axis (check --sample): one snapshot has no rates,
// and then the at-risk status alone judges the partition.
func checkLoss(p *CheckPartition, gp GroupPartition, opts CheckOptions) {
	if gp.Time == nil || gp.Time.Loss == nil || gp.Time.Loss.InMs > opts.RiskWindow.Milliseconds() {
		return
	}
	p.add(VerdictFail, CodeTimeToLoss, fmt.Sprintf("%s (within the %s risk window)",
		LossSentence(gp.TP(), *gp.Time), humanWindow(opts.RiskWindow)), nil)
}
