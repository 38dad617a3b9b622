package model

import (
	"fmt"
	"strings"
)

// auto.offset.reset values a consumer can have (--assume-reset).
const (
	ResetEarliest = "earliest"
	ResetLatest   = "latest" // the Kafka client default
	ResetNone     = "none"
)

// ParseAssumeReset checks an --assume-reset value; "" means latest, the Kafka
// client default.
func ParseAssumeReset(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", ResetLatest:
		return ResetLatest, nil
	case ResetEarliest:
		return ResetEarliest, nil
	case ResetNone:
		return ResetNone, nil
	}
	return "", fmt.Errorf("want earliest, latest or none (the consumer's auto.offset.reset), got %q", s)
}

// CheckAssumeReset checks an --assume-reset value as ParseAssumeReset does, but keeps "" (the
// flag not given): a plan then takes its group type's default (plan.Input.AssumeReset).
func CheckAssumeReset(s string) (string, error) {
	if strings.TrimSpace(s) == "" {
		return "", nil
	}
	return ParseAssumeReset(s)
}
