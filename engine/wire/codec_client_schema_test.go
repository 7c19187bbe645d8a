package wire

// The client vocabulary's schema files (docs/protocol/client-*.schema.json), derived from
// its samples by TestProtocolSchemasMatchTheCodec like the host vocabulary's.

func addClientSchemas(files map[string]map[string]any) {
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
	files["client-input.schema.json"] = discriminated("client-input", "A client input: the input of a client's apply request.", "kind", ins,
		map[string]any{"frame": map[string]any{"$ref": "frame.schema.json"}})
	files["client-effect.schema.json"] = discriminated("client-effect", "One effect of a client's applied reply, in order.", "kind", effs, nil)
	files["client-state.schema.json"] = single("client-state", "The state reply's snapshot of a client.", []string{clientStateSampleJSON}, nil)
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
