package main

import (
	"github.com/offsettui/offsettui/internal/model/check"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// The process exit codes of the check and reset commands (docs/cli.md).

// verdictExitCode is the process exit code of a verdict (docs/cli.md): 0 pass, 1 fail,
// 2 incomplete.
func verdictExitCode(v check.Verdict) int { return v.ExitCode() }

// outcomeExitCode maps an outcome to the reset exit codes of docs/cli.md.
func outcomeExitCode(o plan.ResetOutcome) int {
	switch o {
	case plan.OutcomeApplied:
		return 0
	case plan.OutcomeRefused, plan.OutcomeCancelled:
		return 3
	case plan.OutcomePartlyApplied:
		return 4
	case plan.OutcomeOverwritten:
		return 5
	}
	return 1
}
