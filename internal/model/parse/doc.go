// Package parse reads the user-typed forms offsettui shares with Kafka's tools:
// datetimes (--to-datetime) and durations (--by-duration, --risk-window and the
// other duration flags). Every parser here has a fuzz target.
package parse
