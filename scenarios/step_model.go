package scenarios

import "go.yaml.in/yaml/v3"

// modelStep is what the model does (harness/step_model.go compiles it).
var modelStep = &stepKind{
	name:   ActorModel,
	key:    key{ActorModel, "#model", false, "What the model does."},
	hinted: true,
	defs:   append(append(append(append([]*object(nil), modelObjects...), subObjects...), messageSourceObject), valueObjects...),
	words:  modelWords,
	verbs:  modelObjects,
	choice: "What the model does: a word, or one action.",
	is:     func(st *Step) bool { return st.Model != nil },
	decode: func(d *dec, st *Step, _ string, n *yaml.Node) bool {
		m, ok := d.model(n)
		st.Model = m
		return ok
	},
	validate:  func(v *validator, st *Step) { v.model(st.Pos, st.Model) },
	encode:    func(st *Step) *yaml.Node { return modelNode(st.Model) },
	refusable: func(*Step) bool { return true },
	calls: func(st *Step, _ string, add func(string)) {
		if st.Model.Call == "" {
			return
		}
		add(st.Model.Call)
		for n := range st.Model.Calls {
			add(SubCallID(st.Model.Call, n+1))
		}
	},
}
