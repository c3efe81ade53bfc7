//go:build !(js && wasm)

package main

import (
	"fmt"
	"os"
)

// main explains how to build the command: it runs in JavaScript only.
func main() {
	fmt.Fprintln(os.Stderr, "isolda-wasm: build it with GOOS=js GOARCH=wasm (npm/ci.sh does); it runs inside JavaScript")
	os.Exit(2)
}
