//go:build race

package clustertest

// raceBuild: the tests run with -race, and so does the binary they build.
const raceBuild = true
