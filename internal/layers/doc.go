// Package layers holds no code: its test checks the layering rules of the
// module with `go list -deps` (docs/testing.md): sarama only under
// internal/kafka and cmd/offsettui, views without report, reset or kafka,
// model pure, test support imported by tests only.
package layers
