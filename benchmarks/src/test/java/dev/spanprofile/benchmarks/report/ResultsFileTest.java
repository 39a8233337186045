package dev.spanprofile.benchmarks.report;

import java.time.LocalDate;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** A results file reads back what was written, quoting and empty fields included. */
class ResultsFileTest {

	@Test
	void readsBackWhatItWrote() {
		Figure quoted = new Figure(LocalDate.parse("2026-11-28"), "1c37995", "side-by-side", "pages",
				"recommended production setting (ctimer, 20 ms, 10 % traced)", "paced 300/s", "p99", 1.009, 0.938, 1.06,
				0.916, 1.097, 6, "ratio", "2 cores (AMD EPYC), 24 GiB",
				"java -cp \"a:$(cat b)\" SwitchProbe --setting x spanprofile.event=ctimer,spanprofile.interval=20ms");
		Figure sparse = new Figure(LocalDate.parse("2026-11-27"), "", "memory", "", "max-memory 32 MiB", "",
				"bytes_per_span_real", 377.25, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0, "B", "m",
				"benchmarks/run.sh");

		String text = ResultsFile.write(List.of(quoted, sparse));

		assertThat(text).startsWith(Figure.HEADER + "\n")
			.contains(",\"recommended production setting (ctimer, 20 ms, 10 % traced)\",")
			.contains("\"java -cp \"\"a:$(cat b)\"\" SwitchProbe")
			.contains(",bytes_per_span_real,377.25,,,,,0,B,");
		assertThat(ResultsFile.read(text)).containsExactly(quoted, sparse);
	}

	@Test
	void refusesAFileWithoutTheHeaderOrWithMissingFields() {
		assertThatIllegalArgumentException().isThrownBy(() -> ResultsFile.read("date,median\n2026-01-01,1.0\n"))
			.withMessageContaining("starts with the header");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ResultsFile.read(Figure.HEADER + "\n2026-01-01,abc,memory\n"))
			.withMessageContaining("has 16 fields, this one 3");
	}

	@Test
	void formatsEachUnitAndLeavesOutSpreadsNotRecorded() {
		assertThat(figure(1.0262, 1.021, 1.03, 0.905, 1.061, "ratio").formatted())
			.isEqualTo("1.026 [1.021..1.030] {0.905..1.061}");
		assertThat(figure(0.987, 0.979, 0.991, Double.NaN, Double.NaN, "ratio").formatted())
			.isEqualTo("0.987 [0.979..0.991]");
		assertThat(figure(15.5, Double.NaN, Double.NaN, 14.6, 16.1, "ns").formatted())
			.isEqualTo("15.5 ns {14.6..16.1}");
		assertThat(figure(377.2, Double.NaN, Double.NaN, Double.NaN, Double.NaN, "B").value()).isEqualTo("377 B");
		assertThat(figure(0.0106, Double.NaN, Double.NaN, Double.NaN, Double.NaN, "share").value()).isEqualTo("1.06 %");
		assertThat(figure(30.8, Double.NaN, Double.NaN, Double.NaN, Double.NaN, "MiB").value()).isEqualTo("30.8 MiB");
	}

	private static Figure figure(double median, double lowerQuartile, double upperQuartile, double lowest,
			double highest, String unit) {
		return new Figure(LocalDate.parse("2026-01-01"), "", "b", "", "s", "", "m", median, lowerQuartile,
				upperQuartile, lowest, highest, 1, unit, "", "");
	}

}
