// Command simrun runs the scenario library against the reference engine (DESIGN §8).
//
// Until the scenario library lands it only reports that there is nothing to run.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Println("simrun: no scenarios yet")
	os.Exit(0)
}
