package questions

import "github.com/twosettle/twosettle/engine/jsonx"

// scanHeaderTimed is headerTimed without building the tools value: a jsonx.Scanner walk
// that validates what it skips (so the verdict is the same as parsing the text and then
// looking) and reads only the names and the timeout key.
func scanHeaderTimed(tools string) bool {
	s := jsonx.Scan(tools, nil)
	timed := false
	ok := s.Items(func() bool {
		if s.Peek() != '{' {
			return s.Skip()
		}
		isAsk, hasTimeout := false, false
		ok := s.Members(func(key string) bool {
			switch key {
			case "name":
				if s.Peek() != '"' {
					isAsk = false
					return s.Skip()
				}
				n, ok := s.Str()
				isAsk = ok && n == ToolName
				return ok
			case "parameters":
				hasTimeout = false
				if s.Peek() != '{' {
					return s.Skip()
				}
				return s.Members(func(key string) bool {
					if key != "properties" {
						return s.Skip()
					}
					hasTimeout = false
					if s.Peek() != '{' {
						return s.Skip()
					}
					return s.Members(func(key string) bool {
						if key == "timeout" {
							hasTimeout = true
						}
						return s.Skip()
					})
				})
			}
			return s.Skip()
		})
		if ok && isAsk && hasTimeout {
			timed = true
		}
		return ok
	})
	return ok && s.Done() && timed
}
