// Package imagetest checks the OCI image a release wrote into dist/image
// (scripts/release.sh): its config, its files and their owners, its CA
// bundle, and its entrypoint and command run against `offsettui demo`.
package imagetest
