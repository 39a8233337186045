#!/usr/bin/env bash
# Runs every benchmark in full (about 90 minutes on a 2-core machine) and rewrites docs/benchmarks.md.
# Pass e.g. `--only hook,accuracy` to run some of them (the report then holds only those).
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -ntp package -pl benchmarks -am -DskipTests
classpath="benchmarks/target/classes:$(cat benchmarks/target/benchmark-classpath.txt)"
exec java -cp "$classpath" dev.spanprofile.benchmarks.BenchmarkSuite --out docs/benchmarks.md \
  --logs benchmarks/target/benchmark-logs "$@"
