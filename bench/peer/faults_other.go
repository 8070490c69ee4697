//go:build !unix

package main

import "os"

// selfFaults is not counted off Unix.
func selfFaults() float64 { return 0 }

// childFaults is not counted off Unix.
func childFaults(*os.ProcessState) float64 { return 0 }
