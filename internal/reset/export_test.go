package reset

// SetBeforeWrite lets tests of the external package run f after the backup and
// the audit intent are written, right before the commit.
func SetBeforeWrite(s *Service, f func()) { s.beforeWrite = f }
