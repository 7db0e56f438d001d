package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestLayers holds the arrows of docs/development.md: for each package of
// the module, what it may depend on, directly or not. The CLI (cmd/...) is
// at the top and may use anything; nothing else may use it, and of the
// rest only the CLI uses the build engine; queries reach the solvers only
// to count again under a filter what is recorded by its counts (never the
// engine), and only through query/solve; canon and the schema stand alone.
func TestLayers(t *testing.T) {
	// Each package of the module, what it imports itself, then all it
	// depends on, directly or not: one line each, from one go list.
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}|{{join .Imports " "}}|{{join .Deps " "}}`, "solcat/...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	var pkgs []string
	importsOf, depsOf := map[string][]string{}, map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, rest, _ := strings.Cut(line, "|")
		imports, deps, _ := strings.Cut(rest, "|")
		if strings.HasPrefix(pkg, "solcat/") {
			pkgs = append(pkgs, pkg)
			importsOf[pkg], depsOf[pkg] = strings.Fields(imports), strings.Fields(deps)
		}
	}
	// may lists, for each layer, the module's packages it may depend on.
	may := map[string][]string{
		"solcat/canon":            {},
		"solcat/migrations":       {},
		"solcat/enumerate":        {"solcat/canon"},
		"solcat/catalog/pagefile": {},
		"solcat/catalog/catfile":  {},
		"solcat/catalog/usersql":  {},
		"solcat/catalog/checksum": {},
		"solcat/catalog":          {"solcat/canon", "solcat/migrations", "solcat/catalog/pagefile", "solcat/catalog/catfile", "solcat/catalog/usersql", "solcat/catalog/checksum"},
		"solcat/catalog/builder":  {"solcat/canon", "solcat/migrations", "solcat/catalog", "solcat/catalog/pagefile", "solcat/catalog/catfile", "solcat/catalog/usersql", "solcat/catalog/checksum", "solcat/enumerate"},
		"solcat/query":            {"solcat/canon", "solcat/migrations", "solcat/catalog", "solcat/catalog/pagefile", "solcat/catalog/catfile", "solcat/catalog/usersql", "solcat/catalog/checksum", "solcat/enumerate", "solcat/query/"},
		"solcat/query/solve":      {"solcat/canon", "solcat/enumerate"},
	}
	// doors name, for a tree of packages, the one of them that imports a
	// package itself: the others reach that package through it.
	doors := []struct{ tree, dep, door string }{
		{"solcat/query", "solcat/enumerate", "solcat/query/solve"},
	}
	layerOf := func(pkg string) (string, bool) {
		best := ""
		for layer := range may {
			if (pkg == layer || strings.HasPrefix(pkg, layer+"/")) && len(layer) > len(best) {
				best = layer
			}
		}
		return best, best != ""
	}
	allowed := func(layer, dep string) bool {
		return slices.ContainsFunc(may[layer], func(a string) bool {
			return dep == a || strings.HasSuffix(a, "/") && strings.HasPrefix(dep, a)
		}) || dep == layer || strings.HasPrefix(dep, layer+"/") && layer != "solcat/catalog"
	}
	checked := 0
	for _, pkg := range pkgs {
		if strings.HasPrefix(pkg, "solcat/cmd/") {
			continue // the top: anything
		}
		layer, ok := layerOf(pkg)
		if !ok {
			t.Errorf("%s is in no layer of this test (and of docs/development.md): add it", pkg)
			continue
		}
		for _, dep := range depsOf[pkg] {
			if !strings.HasPrefix(dep, "solcat/") || dep == pkg {
				continue
			}
			if !allowed(layer, dep) {
				t.Errorf("%s depends on %s, which its layer (%s) must not", pkg, dep, layer)
			}
		}
		for _, d := range doors {
			inTree := pkg == d.tree || strings.HasPrefix(pkg, d.tree+"/")
			if inTree && pkg != d.door && slices.Contains(importsOf[pkg], d.dep) {
				t.Errorf("%s imports %s, which of %s's packages only %s does: ask it", pkg, d.dep, d.tree, d.door)
			}
		}
		checked++
	}
	if checked < 7 {
		t.Errorf("checked %d packages: go list found too few (%v)", checked, pkgs)
	}
}
