# Shared by the benchmark scripts (sourced, from the repository's root).

# bench_solcat DIR prints the solcat to time: SOLCAT_BIN if set (one built
# elsewhere, to compare), else one built from this tree into DIR.
bench_solcat() {
  if [ -n "${SOLCAT_BIN:-}" ]; then
    echo "$SOLCAT_BIN"
    return
  fi
  go build -o "$1/solcat" ./cmd/solcat
  echo "$1/solcat"
}
