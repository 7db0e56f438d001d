// Package help holds the long help of solcat and its commands, one text
// file each (NAME.txt), with the limits the code sets written in where the
// texts name them.
package help

import (
	"embed"
	"strconv"
	"strings"

	"solcat/catalog/usersql"
)

//go:embed *.txt
var texts embed.FS

// Text is the long help of a command ("solcat" for solcat's own).
func Text(name string) string {
	text, err := texts.ReadFile(name + ".txt")
	if err != nil {
		panic(err) // a command without its help file: the build is broken
	}
	return strings.ReplaceAll(strings.TrimSuffix(string(text), "\n"), "{{MaxValueMB}}", strconv.Itoa(usersql.MaxValueMB))
}

// Names lists the commands that have a help text, and solcat.
func Names() []string {
	entries, _ := texts.ReadDir(".")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".txt"))
	}
	return names
}
