package scenarios

import "go.yaml.in/yaml/v3"

// ExpectHostConfig is the host-config expectation.
const ExpectHostConfig = "host-config"

// expectHostConfigKind declares the host-config expectation (harness/expect_host_config.go checks it).
var expectHostConfigKind = &expectationKind{
	object: &object{Name: ExpectHostConfig, Doc: "Whether the host took its configuration (the tool registration checks the default timeout).", Keys: []key{
		{ExpectHostConfig, "#config-outcome", true, "accepted or refused."},
		{"contains", "text", false, "The refusal's message contains this."},
	}},
	subject: func(d *dec, n *yaml.Node) (string, bool) {
		return d.enum(n, "host-config outcome", []string{"accepted", "refused"})
	},
	validate: atEnd,
}
