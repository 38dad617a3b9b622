// Package release builds offsettui's release files from a git checkout into a
// dist directory: static binaries per target, archives, a checksums file, deb
// and rpm packages, a Homebrew formula, a changelog and an OCI image. Every file
// is a function of the commit (its time stands in for every timestamp), so two
// builds of one commit give the same bytes (docs/cli.md, "Releases").
package release
