package wire

import "strconv"

// The JSON form of a HostConfig (docs/protocol/host-config.schema.json): every field is
// left out at its zero value, which means the decision's default, so {} is the default
// configuration; defaultTimeoutSec is written whenever it was configured, 0 included (a
// configured 0 is refused, TOOL-3, where an absent key is 120 s):
//
//	{"toolMode"?:S,"defaultTimeoutSec"?:N,"writeWindowMs"?:N}
//
// The codec does not check the values (a tool mode "bogus" decodes); the host refuses
// them when it is configured (TOOL-3).

// AppendHostConfigJSON appends the JSON form of c. Every HostConfig can be written.
func AppendHostConfigJSON(b []byte, c HostConfig) []byte {
	b = append(b, '{')
	first := true
	sep := func() {
		if !first {
			b = append(b, ',')
		}
		first = false
	}
	if c.ToolMode != "" {
		sep()
		b = append(b, `"toolMode":`...)
		b = AppendJSONString(b, c.ToolMode)
	}
	if c.TimeoutConfigured() {
		sep()
		b = append(b, `"defaultTimeoutSec":`...)
		b = strconv.AppendInt(b, int64(c.DefaultTimeoutSec), 10)
	}
	if c.WriteWindowMs != 0 {
		sep()
		b = append(b, `"writeWindowMs":`...)
		b = strconv.AppendInt(b, c.WriteWindowMs.Ms(), 10)
	}
	return append(b, '}')
}

// DecodeHostConfig decodes the JSON form of a host configuration.
func DecodeHostConfig(data []byte) (HostConfig, error) {
	o, err := parseTop(data, "config")
	if err != nil {
		return HostConfig{}, err
	}
	o.what = "host config"
	var c HostConfig
	c.ToolMode, _ = o.optStr("toolMode")
	c.DefaultTimeoutSec, c.DefaultTimeoutSet = o.optInt("defaultTimeoutSec")
	w, _ := o.optInt64("writeWindowMs")
	c.WriteWindowMs = Duration(w)
	if err := o.done(); err != nil {
		return HostConfig{}, err
	}
	return c, nil
}
