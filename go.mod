module github.com/twosettle/twosettle

go 1.25.0
