package main

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// phaseDelay is how long a command works in silence: a command that has
// run longer says on standard error what it is doing, every phaseDelay.
const phaseDelay = 2 * time.Second

// phases reports what a slow command is doing on standard error: once the
// command has run phaseDelay, a line "PREFIX: PHASE (N s)" (with "done of
// total" when the phase counts) every phaseDelay, and one when the phase
// changes after that. A command that ends sooner prints nothing.
type phases struct {
	w      io.Writer
	prefix string
	start  time.Time

	mu          sync.Mutex
	phase       string
	done, total int
	printed     string // the last phase printed
	last        time.Time
	stopped     bool

	stop chan struct{}
	wg   sync.WaitGroup
}

// startPhases starts reporting phases on w, each line starting with prefix.
// Stop ends it.
func startPhases(w io.Writer, prefix string) *phases {
	p := &phases{w: w, prefix: prefix, start: time.Now(), stop: make(chan struct{})}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(phaseDelay / 4)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				p.tick(false)
			case <-p.stop:
				return
			}
		}
	}()
	return p
}

// Set starts the phase what.
func (p *phases) Set(what string) {
	p.mu.Lock()
	p.phase, p.done, p.total = what, 0, 0
	p.mu.Unlock()
	p.tick(true)
}

// Count records the progress of the current phase: done of total.
func (p *phases) Count(done, total int) {
	p.mu.Lock()
	p.done, p.total = done, total
	p.mu.Unlock()
}

// tick prints the current phase when the command has run phaseDelay and
// the last line is phaseDelay old, or (changed) the phase is new.
func (p *phases) tick(changed bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if p.stopped || p.phase == "" || now.Sub(p.start) < phaseDelay {
		return
	}
	if now.Sub(p.last) < phaseDelay && !(changed && p.phase != p.printed) {
		return
	}
	p.last, p.printed = now, p.phase
	line := p.prefix + ": " + p.phase
	if p.total > 0 {
		line += fmt.Sprintf(": %d of %d", p.done, p.total)
	}
	fmt.Fprintf(p.w, "%s (%.0f s)\n", line, now.Sub(p.start).Seconds())
}

// Stop ends the reports; nothing is printed after it returns.
func (p *phases) Stop() {
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return
	}
	p.stopped = true
	p.mu.Unlock()
	close(p.stop)
	p.wg.Wait()
}
