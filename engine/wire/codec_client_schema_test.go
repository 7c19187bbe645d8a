package wire

import "testing"

// The client vocabulary's schema files (docs/protocol/client-*.schema.json), derived from
// its samples by TestProtocolSchemasMatchTheCodec like the host vocabulary's.

func addClientSchemas(t *testing.T, files map[string]map[string]any) {
	var ins, effs, configs []string
	for _, s := range clientInputSamples() {
		ins = append(ins, s.json)
	}
	for _, s := range clientEffectSamples {
		effs = append(effs, s.json)
	}
	for _, s := range clientConfigSamples {
		configs = append(configs, s.json)
	}
	ins = withOmissions(t, ins, func(b []byte) error { _, err := DecodeClientInput(b); return err })
	effs = withOmissions(t, effs, func(b []byte) error { _, err := DecodeClientEffect(b); return err })
	configs = withOmissions(t, configs, func(b []byte) error { _, err := DecodeClientConfig(b); return err })
	states := withOmissions(t, []string{clientStateSampleJSON}, func(b []byte) error { _, err := DecodeClientState(b); return err })
	files["client-input.schema.json"] = discriminated("client-input", "A client input: the input of a client's apply request.", "kind", ins,
		map[string]any{"frame": map[string]any{"$ref": "frame.schema.json"}})
	// a user action's kind is one the decoder knows
	for _, alt := range files["client-input.schema.json"]["oneOf"].([]any) {
		if a := alt.(map[string]any); a["properties"].(map[string]any)["kind"].(map[string]any)["const"] == "user" {
			setProperty(a, []string{"action", "kind"}, map[string]any{"enum": UserActionKinds()})
		}
	}
	files["client-effect.schema.json"] = discriminated("client-effect", "One effect of a client's applied reply, in order.", "kind", effs, nil)
	files["client-state.schema.json"] = single("client-state", "The state reply's snapshot of a client.", states, nil)
	files["client-config.schema.json"] = single("client-config", "The configuration of a client's start request.", configs, nil)
}

func checkClientSamples(check func(file, line string, want bool)) {
	for _, s := range clientInputSamples() {
		check("client-input.schema.json", s.json, true)
		check("client-input.schema.json", s.json[:len(s.json)-1]+`,"extra":1}`, false)
	}
	for _, s := range clientEffectSamples {
		check("client-effect.schema.json", s.json, true)
		check("client-effect.schema.json", s.json[:len(s.json)-1]+`,"extra":1}`, false)
	}
	check("client-state.schema.json", clientStateSampleJSON, true)
	for _, s := range clientConfigSamples {
		check("client-config.schema.json", s.json, true)
	}
	check("client-input.schema.json", `{"kind":"jump"}`, false)
}
