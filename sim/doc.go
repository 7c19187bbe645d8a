// Package sim is the discrete-event simulator (DESIGN §1–3). Its configuration contract is
// config.go; the implementation is in progress.
package sim
