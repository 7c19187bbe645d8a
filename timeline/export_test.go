package timeline

// CheckArrows is checkArrows for the external tests (which may import explore, a package
// that imports this one).
var CheckArrows = checkArrows
