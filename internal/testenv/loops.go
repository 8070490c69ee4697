package testenv

import "sync"

// Loops keeps calls going beside the one a race test checks: each
// function given to Go runs over and over on a goroutine of its own, told
// its turn, until Stop.
type Loops struct {
	stop chan struct{}
	wg   sync.WaitGroup
}

// NewLoops returns a Loops with nothing running.
func NewLoops() *Loops { return &Loops{stop: make(chan struct{})} }

// Go calls fn(0), fn(1), … on a new goroutine until Stop is called; a turn
// under way when Stop is called is finished, and no other starts.
func (l *Loops) Go(fn func(turn int)) {
	l.wg.Go(func() {
		for i := 0; ; i++ {
			select {
			case <-l.stop:
				return
			default:
			}
			fn(i)
		}
	})
}

// Stop ends every loop after its current turn and returns once all of
// them have. Call it once.
func (l *Loops) Stop() {
	close(l.stop)
	l.wg.Wait()
}
