package check

import (
	"fmt"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/timeaxis"
)

// CodeTimeToLoss: at the rates `check --sample` measured, retention deletes
// records the group has not read within the risk window (docs/timeaxis.md).
const CodeTimeToLoss = "time-to-loss"

// checkLoss fails a partition whose predicted loss falls within the risk
// window. It needs a time axis (check --sample): one snapshot has no rates,
// and then the at-risk status alone judges the partition.
func checkLoss(p *Partition, gp model.GroupPartition, opts Options) {
	if gp.Time == nil || gp.Time.Loss == nil || gp.Time.Loss.InMs > opts.RiskWindow.Milliseconds() {
		return
	}
	p.add(VerdictFail, CodeTimeToLoss, fmt.Sprintf("%s (within the %s risk window)",
		timeaxis.LossSentence(gp.TP(), *gp.Time), humanWindow(opts.RiskWindow)), nil)
}
