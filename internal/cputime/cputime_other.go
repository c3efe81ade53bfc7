//go:build !unix

package cputime

import "time"

// Used is not measured on this platform: it returns 0.
func Used() time.Duration { return 0 }
