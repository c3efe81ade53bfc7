package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"runtime"
	"runtime/pprof"
	"time"
)

// memProfile samples the Go heap of this process every interval until ctx
// ends, and writes a heap profile (pprof format, in-use space) to path
// each time the heap in use reaches a new high by a tenth, so that the
// file holds the allocation sites near the peak. With Prism in process
// (the default runner) the process holds the runner too, so the profile
// shows Prism's share of the memory beside the pipeline's. It logs each
// new high (heap in use, the runtime's total from the OS, GC count).
func memProfile(ctx context.Context, path string, interval time.Duration) {
	var high uint64
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		if m.HeapInuse < high+high/10 {
			continue
		}
		high = m.HeapInuse
		log.Printf("isolda-beam: memprofile: heap in use %d MiB, alloc %d MiB, sys %d MiB, next GC %d MiB, GCs %d",
			m.HeapInuse>>20, m.HeapAlloc>>20, m.Sys>>20, m.NextGC>>20, m.NumGC)
		if err := writeHeapProfile(path); err != nil {
			log.Printf("isolda-beam: memprofile: %v", err)
			return
		}
	}
}

// writeHeapProfile writes the heap profile to path through a temporary
// file, so that path always holds a whole profile.
func writeHeapProfile(path string) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("heap profile: %w", err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// cpuProfile starts a CPU profile of this process written to path; the
// function it returns stops it and closes the file.
func cpuProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			log.Printf("isolda-beam: cpuprofile: %v", err)
		}
	}, nil
}
