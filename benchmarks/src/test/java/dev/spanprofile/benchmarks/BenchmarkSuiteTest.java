package dev.spanprofile.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;

import dev.spanprofile.benchmarks.report.Figure;
import dev.spanprofile.benchmarks.report.PerformancePage;
import dev.spanprofile.benchmarks.report.ResultsFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The page is rewritten from its template and every results file, the newest figure of
 * each kind winning; the committed docs/performance.md is what that gives.
 */
class BenchmarkSuiteTest {

	@TempDir
	Path directory;

	@Test
	void writesThePageFromTheTemplateAndTheNewestFigures() throws Exception {
		Path results = Files.createDirectories(this.directory.resolve("results"));
		Files.writeString(results.resolve("2026-01-01-suite.csv"),
				ResultsFile.write(java.util.List.of(bytesPerSpan(LocalDate.parse("2026-01-01"), 400))));
		Files.writeString(results.resolve("2026-02-01-suite.csv"),
				ResultsFile.write(java.util.List.of(bytesPerSpan(LocalDate.parse("2026-02-01"), 377))));
		Files.writeString(results.resolve("notes.txt"), "not a results file");
		Path template = Files.writeString(this.directory.resolve("template.md"),
				"# Performance\n\n{{value memory|*|bytes_per_span_real}} a span, {{date memory}}.\n");
		Path page = this.directory.resolve("docs/performance.md");

		BenchmarkSuite.writePage(template, results, page);

		assertThat(page).hasContent(PerformancePage.GENERATED + "\n# Performance\n\n377 B a span, 2026-02-01.");
	}

	@Test
	void refusesATemplateNamingAFigureNoResultsHave() throws Exception {
		Path template = Files.writeString(this.directory.resolve("template.md"),
				"{{value memory|*|bytes_per_span_real}}\n");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> BenchmarkSuite.writePage(template, this.directory.resolve("none"),
					this.directory.resolve("page.md")))
			.withMessageContaining("No figure memory|*|bytes_per_span_real");
		assertThat(this.directory.resolve("page.md")).doesNotExist();
	}

	@Test
	void theCommittedPageIsWhatTheTemplateAndTheResultsGive() throws Exception {
		// The tests run in the benchmarks module's directory.
		Path page = this.directory.resolve("performance.md");
		BenchmarkSuite.writePage(Path.of("performance.md.template"), Path.of("results"), page);
		assertThat(Files.readString(Path.of("../docs/performance.md")))
			.as("docs/performance.md differs from what benchmarks/run.sh --page-only writes: edit "
					+ "benchmarks/performance.md.template or benchmarks/results/ and run it")
			.isEqualTo(Files.readString(page));
	}

	private static Figure bytesPerSpan(LocalDate date, double bytes) {
		return new Figure(date, "abc1234", "memory", "", "max-memory 32 MiB, 10000 spans/s", "", "bytes_per_span_real",
				bytes, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, "B", "2 cores", "benchmarks/run.sh");
	}

}
