package wire

// Error codes of the decision and the peer implementation (docs/PEER.md §4.7).
const (
	AskAborted         = "ASK_ABORTED"
	AskTimedOut        = "ASK_TIMED_OUT"
	AskCancelled       = "ASK_CANCELLED"
	NoProvider         = "NO_PROVIDER"
	CallerNotLive      = "CALLER_NOT_LIVE"
	DelegatedCaller    = "DELEGATED_CALLER"
	BadIntent          = "BAD_INTENT"
	ReplyQueued        = "REPLY_QUEUED"
	BadAnswer          = "BAD_ANSWER"
	EmptyQuestions     = "EMPTY_QUESTIONS"
	BadTimeout         = "BAD_TIMEOUT"
	DuplicateWait      = "DUPLICATE_WAIT"
	ToolOutcomeUnknown = "TOOL_OUTCOME_UNKNOWN"
)

// Error names.
const (
	UserQuestionErrorName = "UserQuestionError"
	PlainErrorName        = "Error"
	TypeErrorName         = "TypeError"
)

// Client rejection messages (docs/PEER.md §1.3).
const (
	MsgAskCancelled = "the user cancelled ask_user_question"
	MsgAskTimedOut  = "ask_user_question timed out before the user answered"
	MsgAskAborted   = "ask_user_question was aborted before the user answered"
)

// Error is an error as it crosses the wire and as the engine carries it: a name, a code
// (empty for plain errors) and a message. A UserQuestionError has Name UserQuestionError
// and a non-empty Code.
type Error struct {
	Name    string `json:"name"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message"`
}

func (e *Error) Error() string { return e.Message }

// String is the canonical text: "Name/CODE: message" (or "Name: message" without code).
func (e *Error) String() string {
	if e == nil {
		return "<nil>"
	}
	if e.Code == "" {
		return e.Name + ": " + JSONString(e.Message)
	}
	return e.Name + "/" + e.Code + ": " + JSONString(e.Message)
}

// QuestionError returns a UserQuestionError with code and message.
func QuestionError(code, message string) *Error {
	return &Error{Name: UserQuestionErrorName, Code: code, Message: message}
}

// PlainError returns an Error with no code (tool-level validation failures).
func PlainError(message string) *Error { return &Error{Name: PlainErrorName, Message: message} }

// IsDomain reports whether the error is a UserQuestionError with a string code, the shape
// the service restores from a wire rejection (ASK-5).
func (e *Error) IsDomain() bool {
	return e != nil && e.Name == UserQuestionErrorName && e.Code != ""
}

// HasCode reports whether e is a domain error with the given code.
func (e *Error) HasCode(code string) bool { return e.IsDomain() && e.Code == code }
