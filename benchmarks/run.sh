#!/usr/bin/env bash
# Runs every benchmark in full (about 90 minutes on a 2-core machine), writes the figures and the run's report to
# benchmarks/results/ and regenerates docs/performance.md from benchmarks/performance.md.template and those figures.
# Pass e.g. `--only hook,accuracy` to run some of them, or `--page-only` to only regenerate the page.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -ntp package -pl benchmarks -am -DskipTests
classpath="benchmarks/target/classes:$(cat benchmarks/target/benchmark-classpath.txt)"
commit="$(git rev-parse --short HEAD 2>/dev/null || true)"
if [ -n "$commit" ] && ! git diff --quiet HEAD -- 2>/dev/null; then
  commit="$commit-dirty"
fi
exec java -cp "$classpath" dev.spanprofile.benchmarks.BenchmarkSuite --results benchmarks/results \
  --page docs/performance.md --template benchmarks/performance.md.template --commit "$commit" \
  --logs benchmarks/target/benchmark-logs "$@"
