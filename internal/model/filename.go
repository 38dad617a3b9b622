package model

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strings"
)

// unsafeInFileName is what some file system or shell would mind in a file name.
var unsafeInFileName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// FileNamePart makes name (a group's, chosen by whoever named the group) safe as part of a
// file name on any file system: runs of other characters become _, leading dots go, and the
// result is cut to at most maxLen bytes. Whenever it had to change, `~` and the first 8 hex
// digits of the whole name's SHA-256 are added, so two names never share a file.
func FileNamePart(name string, maxLen int) string {
	safe := strings.TrimLeft(unsafeInFileName.ReplaceAllString(name, "_"), ".")
	if len(safe) > maxLen || safe != name {
		sum := sha256.Sum256([]byte(name))
		safe = strings.TrimRight(safe[:min(len(safe), maxLen)], "._-") + "~" + hex.EncodeToString(sum[:4])
	}
	return safe
}
