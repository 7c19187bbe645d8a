package wire

// The questions view on its own, as the projection profile and recorded view files carry
// it (docs/PROTOCOL.md, "Profiles"): the same JSON as a session-update frame's questions,
// {"active":[…],"settled":[…]}, decoded with the codec's strict rules.

// AppendQuestionsViewJSON appends the JSON of a userQuestions view.
func AppendQuestionsViewJSON(b []byte, v QuestionsView) []byte { return appendQuestionsView(b, v) }

// DecodeQuestionsView decodes the JSON of a userQuestions view strictly; errors name the
// path from "view".
func DecodeQuestionsView(data []byte) (QuestionsView, error) {
	o, err := parseTop(data, "view")
	if err != nil {
		return QuestionsView{}, err
	}
	v := decodeQuestionsView(o)
	if err := o.done(); err != nil {
		return QuestionsView{}, err
	}
	return v, nil
}
