#!/usr/bin/env bash
# Builds the Spring PetClinic jars the startup scripts start: petclinic.jar with the spanprofile starter,
# petclinic-plain.jar without it, and petclinic-otel.jar with only the tracing the starter brings (Boot's OpenTelemetry
# starter, without its OTLP metrics registry, as the starter declares it), all on this project's Spring Boot version so
# that the starter is the only difference.
#   petclinic-build.sh <spring-petclinic checkout> <output folder>
# The checkout is https://github.com/spring-projects/spring-petclinic (measured at edf4db28a, 2026-12); it is copied,
# never changed. The starter is installed into the local Maven repository from this checkout first. The output folder
# is what petclinic-start-cost.sh, petclinic-start-variants.sh and petclinic-startup-goals.sh take.
set -euo pipefail
src="$(cd "$1" && pwd)"; out="$(mkdir -p "$2" && cd "$2" && pwd)"
project="$(cd "$(dirname "$0")/../.." && pwd)"
# The parent's version is Spring Boot's, the next one the project's.
boot="$(grep -m1 -A1 '<artifactId>spring-boot-starter-parent</artifactId>' "$project/pom.xml" | sed -n 's:.*<version>\(.*\)</version>.*:\1:p')"
version="$(grep -m1 -A1 '<artifactId>spanprofile-parent</artifactId>' "$project/pom.xml" | sed -n 's:.*<version>\(.*\)</version>.*:\1:p')"
[ -n "$boot" ] && [ -n "$version" ] || { echo "cannot read the Boot version or the project's from $project/pom.xml" >&2; exit 1; }

(cd "$project" && ./mvnw -q -B -ntp -pl core,autoconfigure,starter -am install -DskipTests -Dspring-javaformat.skip=true)

# PetClinic's own checks (formatting, checkstyle, jacoco, git and SBOM metadata) are not what is measured.
skips=(-DskipTests -Dspring-javaformat.skip=true -Dcheckstyle.skip=true -Djacoco.skip=true -Dmaven.gitcommitid.skip=true
  -Dcyclonedx.skip=true -Denforcer.skip=true)
# The dependency each jar adds to PetClinic's (none for petclinic-plain.jar).
starter_dependency="    <dependency>
      <groupId>dev.spanprofile</groupId>
      <artifactId>spanprofile-spring-boot-starter</artifactId>
      <version>$version</version>
    </dependency>"
tracing_dependency="    <dependency>
      <groupId>org.springframework.boot</groupId>
      <artifactId>spring-boot-starter-opentelemetry</artifactId>
      <exclusions>
        <exclusion>
          <groupId>io.micrometer</groupId>
          <artifactId>micrometer-registry-otlp</artifactId>
        </exclusion>
      </exclusions>
    </dependency>"
build() { # <variant folder> <jar name> [dependency to add]
  local work="$out/$1"
  rm -rf "$work"; mkdir -p "$work"
  (cd "$src" && git archive HEAD 2>/dev/null || tar -cf - --exclude=.git --exclude=target .) | tar -xf - -C "$work"
  # The same Boot for every jar: the parent's version is set; the added dependency first among the others.
  ADDED="${3:-}" awk -v boot="$boot" '
    /<artifactId>spring-boot-starter-parent<\/artifactId>/ { parent = 1 }
    parent && /<version>/ { sub(/<version>.*<\/version>/, "<version>" boot "</version>"); parent = 0 }
    { print }
    ENVIRON["ADDED"] != "" && !added && /<dependencies>/ { print ENVIRON["ADDED"]; added = 1 }
  ' "$work/pom.xml" > "$work/pom.xml.new" && mv "$work/pom.xml.new" "$work/pom.xml"
  (cd "$work" && "$project/mvnw" -q -B -ntp package "${skips[@]}")
  cp "$work"/target/spring-petclinic-*.jar "$out/$2"
}
build plain petclinic-plain.jar
build starter petclinic.jar "$starter_dependency"
build tracing petclinic-otel.jar "$tracing_dependency"
echo "built $out/petclinic.jar (with spanprofile $version), $out/petclinic-plain.jar and $out/petclinic-otel.jar (tracing only), all on Spring Boot $boot"
