package timeline

// CheckArrows is checkArrows for the external tests (which may import explore, a package
// that imports this one).
var CheckArrows = checkArrows

// FmtMs and RecID are fmtMs and recID for the external tests.
var (
	FmtMs = fmtMs
	RecID = recID
)
