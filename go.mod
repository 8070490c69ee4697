module github.com/memrecall/memrecall

go 1.26.0

require (
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/qmuntal/stateless v1.7.2 // indirect
	golang.org/x/text v0.44.0 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)
