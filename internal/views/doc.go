// Package views is offsettui's interactive inspector: bubbletea models and lipgloss
// rendering for the groups list, one group's partitions, the reset planner and
// the help screen.
//
// The package reads the cluster only through the Source interface and resets
// offsets only through the Resetter interface, so it never imports internal/kafka,
// internal/reset or sarama, and classifies and plans nothing itself: statuses,
// lags, plans and their guards come from internal/model and its subpackages. Every
// Kafka call runs in a tea.Cmd tagged with a generation; replies of an older
// generation are dropped.
//
// Layout: the root model (app.go) owns a stack of screens (groups › group › …),
// the header with crumbs, the status line and the short help line. Each screen
// is one file and implements the screen contract in common.go.
package views
