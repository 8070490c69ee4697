module github.com/memrecall/memrecall

go 1.26

require (
	github.com/google/go-cmp v0.7.0
	github.com/qmuntal/stateless v1.7.2
	golang.org/x/text v0.40.0
	pgregory.net/rapid v1.3.0
)

require go.yaml.in/yaml/v3 v3.0.6
