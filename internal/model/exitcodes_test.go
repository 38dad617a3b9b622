package model

import "testing"

func TestVerdictExitCode(t *testing.T) {
	for v, want := range map[Verdict]int{VerdictPass: 0, VerdictFail: 1, VerdictIncomplete: 2, "": 2} {
		if got := v.ExitCode(); got != want {
			t.Errorf("%q: %d, want %d", v, got, want)
		}
	}
}

func TestOutcomeExitCode(t *testing.T) {
	for o, want := range map[ResetOutcome]int{OutcomeApplied: 0, OutcomeFailed: 1, OutcomeRefused: 3, OutcomePartlyApplied: 4} {
		if got := o.ExitCode(); got != want {
			t.Errorf("%q: %d, want %d", o, got, want)
		}
	}
}
