package main

import (
	"testing"

	"github.com/offsettui/offsettui/internal/model/check"
	"github.com/offsettui/offsettui/internal/model/plan"
)

func TestVerdictExitCode(t *testing.T) {
	for v, want := range map[check.Verdict]exitCode{check.VerdictPass: 0, check.VerdictFail: 1, check.VerdictIncomplete: 2, "": 2} {
		if got := verdictExitCode(v); got != want {
			t.Errorf("%q: %d, want %d", v, got, want)
		}
	}
}

func TestOutcomeExitCode(t *testing.T) {
	for o, want := range map[plan.ResetOutcome]exitCode{plan.OutcomeApplied: 0, plan.OutcomeFailed: 1, plan.OutcomeRefused: 3, plan.OutcomePartlyApplied: 4} {
		if got := outcomeExitCode(o); got != want {
			t.Errorf("%q: %d, want %d", o, got, want)
		}
	}
}
