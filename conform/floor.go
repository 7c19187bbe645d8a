package conform

// Floor are the requirement ids a library run of a whole host must judge, each by a
// scenario that passed or failed, to be a verdict (docs/PROTOCOL.md "How a run is
// judged", no vacuous verdict): the host and runtime ids that the library judges on a
// host that declares no optional feature (write-through, no introspection, no ptc,
// restart, direct, …), so every host can meet it. A run that judged fewer is reported
// NO VERDICT and exits 1, unless --allow-partial (a team adopting a part on purpose).
// TestFloorIsWhatAHostWithNoFeaturesIsJudgedOn keeps this list equal to what the
// library judges on such a host.
var Floor = []string{
	"TOOL-1", "TOOL-2", "TOOL-3", "TOOL-4", "TOOL-5", "TOOL-7", "TOOL-8",
	"CALLER-3",
	"ASK-9", "ASK-10", "ASK-11", "ASK-12",
	"WAIT-1", "WAIT-2", "WAIT-3", "WAIT-4", "WAIT-5", "WAIT-6", "WAIT-7", "WAIT-8", "WAIT-9", "WAIT-10",
	"GW-1", "GW-2", "GW-3", "GW-4", "GW-5", "GW-6", "GW-7", "GW-8",
	"PROJ-2", "PROJ-3", "PROJ-4", "PROJ-5", "PROJ-6", "PROJ-8", "PROJ-10",
	"LATE-4", "LATE-7", "LATE-8",
	"AGENT-5",
}
