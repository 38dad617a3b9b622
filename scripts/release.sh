#!/usr/bin/env bash
# Builds offsettui's release files into dist/ (docs/cli.md, "Releases"): the six
# archives (linux, darwin, windows × amd64, arm64; static, -trimpath, the commit's
# time as the build date), checksums.txt, deb and rpm packages, a Homebrew formula,
# CHANGELOG.md and an OCI image (dist/image), with tools/cmd/release: nfpm and
# go-containerregistry as libraries, pinned in tools/go.mod.
#
#   scripts/release.sh --snapshot                        # any commit, offline
#   scripts/release.sh                                   # a clean tree at a tag vX.Y.Z
#   scripts/release.sh --snapshot --targets linux/amd64  # some targets; the rest are checked
#
# Offline: GOPROXY=off, so nothing is fetched; `go mod download` in the repository
# and in tools/ first (.ci/run does both). Every target shares the one Go build
# cache.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
export GOPROXY=off GOFLAGS="-mod=readonly -buildvcs=false"
cd tools
exec go run ./cmd/release --repo "$repo" --dist "$repo/dist" "$@"
