package jsonx

import (
	"math"
	"strconv"
)

// Kind is the JSON type of a Value; Absent is the Kind of a member or item that is not
// there (Get of a missing key, the zero Value).
type Kind byte

const (
	Absent Kind = iota
	Null
	False
	True
	Number
	String
	Array
	Object
)

// Value is one parsed JSON value with JSON.parse's semantics: an object's members keep the
// position of a key's first occurrence and the value of its last (as JSON.parse builds an
// object), numbers are read as doubles on demand from their literal, and strings are
// substrings of the text when they have no escapes. A Value read by a Reader is valid
// until that Reader's next Parse: callers turn it into their own values at once.
type Value struct {
	kind Kind
	str  string  // a string's value, or a number's literal
	key  string  // the member's key, for a value inside an object
	vals []Value // an array's items or an object's members (each with its key)
}

// Kind is v's JSON type (Absent for the zero Value).
func (v Value) Kind() Kind { return v.kind }

// Exists reports whether v is there (present, possibly null).
func (v Value) Exists() bool { return v.kind != Absent }

// IsNull reports whether v is absent or null (an optional field left out).
func (v Value) IsNull() bool { return v.kind == Absent || v.kind == Null }

// IsObject reports whether v is an object.
func (v Value) IsObject() bool { return v.kind == Object }

// IsArray reports whether v is an array.
func (v Value) IsArray() bool { return v.kind == Array }

// Key is the member's key, for a member of an object.
func (v Value) Key() string { return v.key }

// Len is the number of an array's items or an object's members.
func (v Value) Len() int { return len(v.vals) }

// Items are an array's items or an object's members, in order (each member carries its
// Key).
func (v Value) Items() []Value { return v.vals }

// Get is the member key of an object (its last value, at its first position), or the
// absent Value.
func (v Value) Get(key string) Value {
	if v.kind != Object {
		return Value{}
	}
	for i := range v.vals {
		if v.vals[i].key == key {
			return v.vals[i]
		}
	}
	return Value{}
}

// Text is a string's value or a number's literal, without checking the kind (for a
// caller that has checked it).
func (v Value) Text() string { return v.str }

// Str is a string's value.
func (v Value) Str() (string, bool) { return v.str, v.kind == String }

// Bool is a boolean's value.
func (v Value) Bool() (b, ok bool) { return v.kind == True, v.kind == True || v.kind == False }

// Num is a number's value as a double, as JSON.parse reads it: ±Inf beyond the range (0
// for underflow).
func (v Value) Num() (float64, bool) {
	if v.kind != Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(v.str, 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, false // cannot happen: the literal is JSON's number grammar
	}
	return f, true
}

// Strings is an array of strings only (a new slice; nil for any other value).
func (v Value) Strings() ([]string, bool) {
	if v.kind != Array {
		return nil, false
	}
	out := make([]string, 0, len(v.vals))
	for _, it := range v.vals {
		if it.kind != String {
			return nil, false
		}
		out = append(out, it.str)
	}
	return out, true
}
