package dev.spanprofile.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;

import dev.spanprofile.benchmarks.report.BenchmarkReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A rewrite of docs/benchmarks.md must not erase the analyses written by hand below the
 * marker.
 */
class BenchmarkSuiteTest {

	@TempDir
	Path directory;

	@Test
	void keepsEverythingFromTheMarkerOn() throws Exception {
		Path report = this.directory.resolve("benchmarks.md");
		String handWritten = BenchmarkReport.KEPT_MARKER + "\n\n## Measured by hand\n\nfigures\n";
		Files.writeString(report, "# Benchmarks\n\ngenerated figures\n\n" + handWritten);
		assertThat(BenchmarkSuite.keptPart(report)).isEqualTo("\n" + handWritten);
	}

	@Test
	void keepsNothingWithoutTheMarkerOrTheFile() throws Exception {
		Path report = this.directory.resolve("benchmarks.md");
		assertThat(BenchmarkSuite.keptPart(report)).isEmpty();
		Files.writeString(report, "# Benchmarks\n\ngenerated figures\n");
		assertThat(BenchmarkSuite.keptPart(report)).isEmpty();
	}

}
