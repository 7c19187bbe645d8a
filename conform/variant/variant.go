package variant

import (
	"fmt"
	"slices"
	"strings"

	"github.com/twosettle/twosettle/engine/wire"
)

// Factory builds a fresh host for one run from the scenario's host configuration: the
// shape of harness.HostFactory (an alias, so either is assignable to the other).
type Factory = func(cfg wire.HostConfig) (wire.HostPort, error)

// Feature names of the protocol this package changes (conform's Feature* constants;
// conform's tests check they agree).
const (
	FeatureWriteWindow   = "write-window"
	FeatureIntrospection = "introspection"
	// FeatureReferenceRuntime: the reference runtime's bookkeeping, transcript for
	// transcript; a variant that reports persistence or its waits otherwise drops it
	FeatureReferenceRuntime = "reference-runtime"
)

// Variant is one legal variation of a correct host.
type Variant struct {
	// Name is the variant's name (conform refhost --variant NAME).
	Name string
	// Summary says in one line what the variant changes.
	Summary string
	// WireOnly marks a variant of the protocol encoding only (json-style): it does not
	// change the HostPort and applies when the host is served over the protocol.
	WireOnly bool
	features func(ref []string) []string
	config   func(wire.HostConfig) wire.HostConfig
	wrap     func(wire.HostPort) wire.HostPort
}

// Features is what the variant declares, given what the host it wraps declares.
func (v Variant) Features(ref []string) []string {
	out := slices.Clone(ref)
	if v.features != nil {
		out = v.features(out)
	}
	return out
}

// Config is the configuration the wrapped host is built with for a run configured cfg.
func (v Variant) Config(cfg wire.HostConfig) wire.HostConfig {
	if v.config != nil {
		return v.config(cfg)
	}
	return cfg
}

// Wrap wraps a host built with Config(cfg).
func (v Variant) Wrap(h wire.HostPort) wire.HostPort {
	if v.wrap != nil {
		return v.wrap(h)
	}
	return h
}

// Factory is inner behind the variant: each run's host is built with Config and wrapped.
func (v Variant) Factory(inner Factory) Factory {
	return List{v}.Factory(inner)
}

// List is variants composed: the first wraps the host innermost, and features pass
// through each in order.
type List []Variant

// Name is the list's names joined with commas ("" for none).
func (l List) Name() string {
	names := make([]string, len(l))
	for i, v := range l {
		names[i] = v.Name
	}
	return strings.Join(names, ",")
}

// Features is what the composed variant declares, given what the wrapped host declares.
func (l List) Features(ref []string) []string {
	out := slices.Clone(ref)
	for _, v := range l {
		out = v.Features(out)
	}
	return out
}

// Config is the configuration the wrapped host is built with.
func (l List) Config(cfg wire.HostConfig) wire.HostConfig {
	for _, v := range l {
		cfg = v.Config(cfg)
	}
	return cfg
}

// Wrap wraps h in every variant of the list, the first innermost.
func (l List) Wrap(h wire.HostPort) wire.HostPort {
	for _, v := range l {
		h = v.Wrap(h)
	}
	return h
}

// JSONStyle reports whether the list restyles the protocol's JSON (json-style).
func (l List) JSONStyle() bool {
	return slices.ContainsFunc(l, func(v Variant) bool { return v.Name == NameJSONStyle })
}

// Factory is inner behind the composed variant. A refusal of the configuration by the
// inner host is returned as it is (a configuration refusal is judged by its presence).
func (l List) Factory(inner Factory) Factory {
	return func(cfg wire.HostConfig) (wire.HostPort, error) {
		h, err := inner(l.Config(cfg))
		if err != nil {
			return h, err
		}
		return l.Wrap(h), nil
	}
}

// Variant names.
const (
	NameIDsUUID         = "ids-uuid"
	NameIDsNumbers      = "ids-numbers"
	NameReorder         = "reorder"
	NamePersistLate     = "persist-late"
	NameWriteThrough    = "write-through"
	NameNoIntrospection = "no-introspection"
	NameMinimal         = "minimal"
	NameRefusalWords    = "refusal-words"
	NameJSONStyle       = "json-style"
)

// All is every variant, in a fixed order.
func All() []Variant {
	return []Variant{
		{Name: NameIDsUUID, Summary: "mints uuid-shaped waterfall event ids and inbox message ids",
			wrap: func(h wire.HostPort) wire.HostPort { return newIDs(h, uuidMinter) }},
		{Name: NameIDsNumbers, Summary: `mints plain numbers ("1", "2", ...) as waterfall event ids and inbox message ids`,
			wrap: func(h wire.HostPort) wire.HostPort { return newIDs(h, numberMinter) }},
		{Name: NameReorder, Summary: "emits the effects of one apply that the decision does not order in another order",
			wrap: func(h wire.HostPort) wire.HostPort { return newReshape(h, reorder) }},
		{Name: NamePersistLate, Summary: "reports persisted after the frames and replies that follow it (not after an acknowledgement)",
			features: without(FeatureReferenceRuntime),
			wrap:     func(h wire.HostPort) wire.HostPort { return newReshape(h, persistLate) }},
		{Name: NameWriteThrough, Summary: "persists every event at once (ignores the write window) and does not declare write-window",
			features: without(FeatureWriteWindow), config: writeThrough},
		{Name: NameNoIntrospection, Summary: "declares no introspection: no wait notes, no volatile state",
			features: func(fs []string) []string {
				return without(FeatureReferenceRuntime)(without(FeatureIntrospection)(fs))
			},
			wrap: func(h wire.HostPort) wire.HostPort { return newReshape(h, noIntrospection) }},
		{Name: NameMinimal, Summary: "declares no optional feature (write-through, no introspection)",
			features: func([]string) []string { return nil }, config: writeThrough,
			wrap: func(h wire.HostPort) wire.HostPort { return newReshape(h, noIntrospection) }},
		{Name: NameRefusalWords, Summary: "words every command refusal differently",
			wrap: func(h wire.HostPort) wire.HostPort { return &refusals{base{h}} }},
		{Name: NameJSONStyle, Summary: "over the protocol: replies with other key order and whitespace", WireOnly: true},
	}
}

// Names lists every variant's name, in All's order.
func Names() []string {
	var out []string
	for _, v := range All() {
		out = append(out, v.Name)
	}
	return out
}

// Lookup returns the variant called name.
func Lookup(name string) (Variant, error) {
	for _, v := range All() {
		if v.Name == name {
			return v, nil
		}
	}
	return Variant{}, fmt.Errorf("unknown variant %q (the variants are %s)", name, strings.Join(Names(), ", "))
}

// Parse reads a comma-separated list of variant names ("" is the empty list).
func Parse(spec string) (List, error) {
	var out List
	if strings.TrimSpace(spec) == "" {
		return nil, nil
	}
	for _, name := range strings.Split(spec, ",") {
		v, err := Lookup(strings.TrimSpace(name))
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// without removes feature f from a feature list.
func without(f string) func([]string) []string {
	return func(fs []string) []string {
		return slices.DeleteFunc(fs, func(x string) bool { return x == f })
	}
}

// writeThrough runs the wrapped host write-through whatever window was configured.
func writeThrough(cfg wire.HostConfig) wire.HostConfig {
	cfg.WriteWindowMs = -1
	return cfg
}
