// Package display words the domain's values the same way for the TUI
// (internal/views) and the tables and Markdown (internal/report): rates, trends and
// ETAs, a group's total lag, state, members and tasks, and a plan's rows, totals
// and verification. Text only one of them shows lives with it.
package display
