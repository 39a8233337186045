package dev.spanprofile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The imports each core package may make, as its {@code package-info.java} says: the
 * layers run one way, and the words every package speaks live in {@code profile}, not in
 * the store.
 */
class PackageDependenciesTest {

	private static final Path SOURCES = Path.of("src/main/java/dev/spanprofile");

	private static final Pattern IMPORT = Pattern
		.compile("^import (?:static )?dev\\.spanprofile\\.?([a-z.]*?)\\.?[A-Z]", Pattern.MULTILINE);

	/**
	 * Package (relative to dev.spanprofile, "" for the root) to the packages it may
	 * import besides itself.
	 */
	private static final Map<String, Set<String>> ALLOWED = Map.ofEntries(Map.entry("profile", Set.of()),
			Map.entry("tracking", Set.of()), Map.entry("cgroup", Set.of()), Map.entry("upload", Set.of()),
			Map.entry("link", Set.of()), Map.entry("sampling", Set.of("profile", "tracking")),
			Map.entry("attribution", Set.of("profile", "sampling", "store", "tracking")),
			Map.entry("store", Set.of("profile", "tracking")),
			Map.entry("lifecycle", Set.of("aggregate", "attribution", "profile", "sampling", "store", "tracking")),
			Map.entry("aggregate", Set.of("profile", "store")), Map.entry("render", Set.of("profile")),
			Map.entry("render.html", Set.of("profile", "render")),
			Map.entry("render.pprof", Set.of("profile", "render", "render.pprof.proto")),
			Map.entry("slowlog", Set.of("cgroup", "profile", "render", "store")),
			Map.entry("pyroscope", Set.of("profile", "sampling", "tracking", "upload")),
			Map.entry("otlp", Set.of("profile", "store", "upload")),
			Map.entry("startup", Set.of("attribution", "profile", "store", "tracking")),
			Map.entry("", Set.of("aggregate", "attribution", "cgroup", "lifecycle", "profile", "sampling", "slowlog",
					"startup", "store", "tracking")));

	@Test
	void everyPackageImportsOnlyWhatItsPackageInfoAllows() throws IOException {
		List<String> violations = new ArrayList<>();
		int files = 0;
		try (Stream<Path> sources = Files.walk(SOURCES)) {
			for (Path source : sources.filter((path) -> path.toString().endsWith(".java")).toList()) {
				files++;
				String pkg = SOURCES.relativize(source.getParent()).toString().replace('/', '.');
				if (pkg.equals("view")) {
					// The top of core: anything below it.
					continue;
				}
				Set<String> allowed = ALLOWED.get(pkg);
				assertThat(allowed).as("rules for package '%s' (%s)", pkg, source).isNotNull();
				Matcher imports = IMPORT.matcher(Files.readString(source));
				while (imports.find()) {
					String imported = imports.group(1);
					if (!imported.equals(pkg) && !allowed.contains(imported)) {
						violations.add(source + " imports dev.spanprofile." + imported);
					}
				}
			}
		}
		assertThat(files).as("core's main sources").isGreaterThan(100);
		assertThat(violations).as("imports across the layers").isEmpty();
	}

}
