// Package text formats numbers, durations, rates and plurals for people: the one
// copy every table, screen, check reason and plan message writes them with. It
// knows nothing of the domain and imports no package of the module, so the domain
// packages may use it for their own messages.
package text
